/* The per-thread call context (call.h). */
#include "core/call.h"

_Thread_local ucmpi_call_t ucmpi_call_ctx
    __attribute__((tls_model("initial-exec"), visibility("hidden")));
