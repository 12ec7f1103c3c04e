/* The direct path: a target whose window memory is mapped here is accessed with
 * memcpy; flushes and synchronisation add the barriers. */
#include "rma/rma.h"

#include <string.h>

/* Scatter the packed data over the target runs. */
int ucmpi_rma_direct_put(const void *data, const ucmpi_rma_target_t *t)
{
    const char *src = data;
    for (size_t i = 0; i < t->nsegs; i++) {
        ucmpi_rma_copy(t->local + t->segs[i].off, src, t->segs[i].len);
        src += t->segs[i].len;
    }
    ucmpi_rma_nt_fence(t->bytes);
    return MPI_SUCCESS;
}

/* Gather the target runs into dst (packed order). */
void ucmpi_rma_direct_get(void *dst, const ucmpi_rma_target_t *t)
{
    char *d = dst;
    for (size_t i = 0; i < t->nsegs; i++) {
        ucmpi_rma_copy(d, t->local + t->segs[i].off, t->segs[i].len);
        d += t->segs[i].len;
    }
}
