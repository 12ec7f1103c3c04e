/*
 * UCX services for lib/ (no UCP types): start-up, shutdown, tag messaging.
 */
#ifndef UCMPI_UCX_H
#define UCMPI_UCX_H

#include "ucmpi.h"

/* Context + worker (thread mode from the MPI thread level), address
 * published through the runtime modex (the caller fences). */
int ucmpi_ucx_init(int thread_level);
/* After the modex fence: fetch peers' addresses. */
int ucmpi_ucx_wireup(void);
/* Close endpoints (flushing), progressing the worker. */
void ucmpi_ucx_close_eps(void);
void ucmpi_ucx_finalize(void);
int ucmpi_ucx_progress(void);
/* Event fd for blocking waits, or -1. */
int ucmpi_ucx_arm(void);
int ucmpi_ucx_efd(void);
const char *ucmpi_ucx_version(void);

#endif
