/* UCX-free RMA services for lib/rma/ (registration, rkeys, put/get/atomics,
 * flushes, active messages), implemented in rma_*.c and am_*.c. */
#ifndef UCMPI_GLUE_RMA_H
#define UCMPI_GLUE_RMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ucmpi_rma_mem ucmpi_rma_mem_t;     /* registered local region */
typedef struct ucmpi_rma_rkey ucmpi_rma_rkey_t;   /* unpacked remote key */

/* Completion counter: each operation adds one to pending (and to its
 * parent's), completion takes it off; status keeps the first failure. */
typedef struct ucmpi_rma_cnt {
    int pending;
    int status;
    struct ucmpi_rma_cnt *parent;
    /* called when pending drops to 0 (may free the counter) */
    void (*drained)(struct ucmpi_rma_cnt *c);
} ucmpi_rma_cnt_t;

static inline bool ucmpi_rma_cnt_done(const ucmpi_rma_cnt_t *c)
{
    return __atomic_load_n(&c->pending, __ATOMIC_ACQUIRE) == 0;
}
static inline void ucmpi_rma_cnt_add(ucmpi_rma_cnt_t *c)
{
    for (; c != NULL; c = c->parent)
        __atomic_add_fetch(&c->pending, 1, __ATOMIC_RELAXED);
}
/* One operation finished with `status` (0 or an error code). */
static inline void ucmpi_rma_cnt_sub(ucmpi_rma_cnt_t *c, int status)
{
    while (c != NULL) {
        struct ucmpi_rma_cnt *parent = c->parent;
        if (status != 0 && c->status == 0)
            c->status = status;
        if (__atomic_sub_fetch(&c->pending, 1, __ATOMIC_ACQ_REL) == 0 &&
            c->drained != NULL)
            c->drained(c);
        c = parent;
    }
}

/* Dedicated RMA endpoints live while some window holds a reference. */
void ucmpi_rma_eps_retain(void);
void ucmpi_rma_eps_release(void);

/* Register [base, base+len) for remote access (len may be 0: no region). */
int ucmpi_rma_mem_map(void *base, size_t len, ucmpi_rma_mem_t **mem);
void ucmpi_rma_mem_unmap(ucmpi_rma_mem_t *mem);
/* len zeroed bytes allocated and registered by UCX, so node peers reach
 * them through shared memory (ucmpi_rma_mem_unmap frees them). */
int ucmpi_rma_mem_alloc(size_t len, void **ptr, ucmpi_rma_mem_t **mem);
/* Packed remote key in a malloc'd buffer (free() it); *len 0 for NULL mem. */
int ucmpi_rma_rkey_pack(ucmpi_rma_mem_t *mem, void **buf, size_t *len);
/* Remote key usable towards world rank `peer` (NULL for an empty key). */
int ucmpi_rma_rkey_unpack(int peer, const void *buf, size_t len,
                          ucmpi_rma_rkey_t **rkey);
void ucmpi_rma_rkey_destroy(ucmpi_rma_rkey_t *rkey);
/* The address where the remote raddr is mapped in this process, when a
 * transport can map it (shared memory it allocated, xpmem); else NULL. */
void *ucmpi_rma_rkey_ptr(ucmpi_rma_rkey_t *rkey, uint64_t raddr);

/* Nonblocking one-sided transfers to world rank `peer`, locally complete
 * on `cnt`; remote completion needs ucmpi_rma_flush. */
int ucmpi_rma_put(int peer, const void *buf, size_t len, uint64_t raddr,
                  ucmpi_rma_rkey_t *rkey, ucmpi_rma_cnt_t *cnt);
int ucmpi_rma_get(int peer, void *buf, size_t len, uint64_t raddr,
                  ucmpi_rma_rkey_t *rkey, ucmpi_rma_cnt_t *cnt);
/* 64-bit atomic add of *value on raddr, the old value fetched into
 * *result. */
int ucmpi_rma_fetch_add(int peer, const uint64_t *value, uint64_t *result,
                        uint64_t raddr, ucmpi_rma_rkey_t *rkey,
                        ucmpi_rma_cnt_t *cnt);

/* Remote completion of every put/atomic issued to `peer` (-1: to all),
 * counted on cnt. */
int ucmpi_rma_flush(int peer, ucmpi_rma_cnt_t *cnt);

/* Active messages: requests to a target and its replies.  Handlers run inside UCX
 * callbacks: they copy what they need and queue work, nothing more. */
enum { UCMPI_RMA_MSG_REQUEST, UCMPI_RMA_MSG_REPLY };
typedef void (*ucmpi_rma_am_fn_t)(const void *msg, size_t len);
/* Registers the handler of message kind `id` with the worker. */
int ucmpi_rma_am_set_handler(int id, ucmpi_rma_am_fn_t fn);
/* Sends the malloc'd message `msg` eagerly and frees it once sent (also
 * on error); cnt (may be NULL) counts its local completion. */
int ucmpi_rma_am_send(int peer, int id, void *msg, size_t len,
                      ucmpi_rma_cnt_t *cnt);

#endif
