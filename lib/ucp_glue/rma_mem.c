/* RMA memory: registration of window memory with UCP and remote keys. */
#include "glue.h"
#include "ucp_glue/rma.h"

#include <stdlib.h>
#include <string.h>

struct ucmpi_rma_mem {
    ucp_mem_h memh;
};

struct ucmpi_rma_rkey {
    ucp_rkey_h rkey;
};

/* Registers len bytes at base, or (alloc) len zeroed bytes UCX allocates,
 * into *ptr. */
static int mem_map(void *base, size_t len, bool alloc, void **ptr,
                   ucmpi_rma_mem_t **mem)
{
    ucmpi_rma_mem_t *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_NO_MEM);
    ucp_mem_map_params_t p = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS |
                      UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                      UCP_MEM_MAP_PARAM_FIELD_FLAGS,
        .address = base,
        .length = len,
        .flags = alloc ? UCP_MEM_MAP_ALLOCATE : 0,
    };
    ucp_mem_attr_t attr = {.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS};
    if ((alloc || len > 0) &&
        ucp_mem_map(ucmpi_ucx.context, &p, &m->memh) != UCS_OK) {
        free(m);
        return ucmpi_ucx_err(alloc ? UCMPI_UCX_E_NO_MEM : UCMPI_UCX_E_INTERN);
    }
    if (alloc && ucp_mem_query(m->memh, &attr) != UCS_OK) {
        ucp_mem_unmap(ucmpi_ucx.context, m->memh);
        free(m);
        return ucmpi_ucx_err(UCMPI_UCX_E_INTERN);
    }
    if (alloc) {
        memset(attr.address, 0, len);
        *ptr = attr.address;
    }
    *mem = m;
    return 0;
}

int ucmpi_rma_mem_map(void *base, size_t len, ucmpi_rma_mem_t **mem)
{
    return mem_map(base, len, false, NULL, mem);
}

int ucmpi_rma_mem_alloc(size_t len, void **ptr, ucmpi_rma_mem_t **mem)
{
    return mem_map(NULL, len, true, ptr, mem);
}

void ucmpi_rma_mem_unmap(ucmpi_rma_mem_t *mem)
{
    if (mem == NULL)
        return;
    if (mem->memh != NULL)
        ucp_mem_unmap(ucmpi_ucx.context, mem->memh);
    free(mem);
}

int ucmpi_rma_rkey_pack(ucmpi_rma_mem_t *mem, void **buf, size_t *len)
{
    void *ucx_buf;
    size_t n;

    if (mem == NULL || mem->memh == NULL) {
        *buf = NULL;
        *len = 0;
        return 0;
    }
    if (ucp_rkey_pack(ucmpi_ucx.context, mem->memh, &ucx_buf, &n) != UCS_OK)
        return ucmpi_ucx_err(UCMPI_UCX_E_INTERN);
    void *copy = malloc(n);
    if (copy != NULL)
        memcpy(copy, ucx_buf, n);
    ucp_rkey_buffer_release(ucx_buf);
    if (copy == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_NO_MEM);
    *buf = copy;
    *len = n;
    return 0;
}

int ucmpi_rma_rkey_unpack(int peer, const void *buf, size_t len,
                          ucmpi_rma_rkey_t **rkey)
{
    if (len == 0) {
        *rkey = NULL;
        return 0;
    }
    ucp_ep_h ep = ucmpi_rma_ep(peer);
    if (ep == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_OTHER);
    ucmpi_rma_rkey_t *k = malloc(sizeof(*k));
    if (k == NULL)
        return ucmpi_ucx_err(UCMPI_UCX_E_NO_MEM);
    if (ucp_ep_rkey_unpack(ep, buf, &k->rkey) != UCS_OK) {
        free(k);
        return ucmpi_ucx_err(UCMPI_UCX_E_INTERN);
    }
    *rkey = k;
    return 0;
}

void ucmpi_rma_rkey_destroy(ucmpi_rma_rkey_t *rkey)
{
    if (rkey == NULL)
        return;
    ucp_rkey_destroy(rkey->rkey);
    free(rkey);
}

void *ucmpi_rma_rkey_ptr(ucmpi_rma_rkey_t *rkey, uint64_t raddr)
{
    void *p = NULL;
    if (rkey == NULL || ucp_rkey_ptr(rkey->rkey, raddr, &p) != UCS_OK)
        return NULL;
    return p;
}

/* The raw UCP key, for rma_ops.c. */
ucp_rkey_h ucmpi_rma_rkey_ucp(ucmpi_rma_rkey_t *rkey);
ucp_rkey_h ucmpi_rma_rkey_ucp(ucmpi_rma_rkey_t *rkey)
{
    return rkey->rkey;
}
