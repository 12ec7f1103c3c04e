/* Buffered-send buffers (bsend.c) and their MPI API (bsend_buffer.c). */
#ifndef UCMPI_BSEND_H
#define UCMPI_BSEND_H

#include "p2p/request.h"
#include "datatype/datatype.h"

typedef struct ucmpi_bpool ucmpi_bpool_t;

ucmpi_bpool_t *ucmpi_bpool_process(void);
/* comm's own buffer pool; created on demand when `create`. */
ucmpi_bpool_t *ucmpi_bpool_of(ucmpi_comm_t *comm, int create);
/* Errors go to the object (obj_kind UCMPI_OBJ_*) the buffer belongs to. */
int ucmpi_bpool_attach(ucmpi_bpool_t *pool, void *buffer, MPI_Count size,
                       int obj_kind, void *obj, const char *fn);
/* A session's pool (lib/core/session.c keeps it): new, and freed once its
 * buffered messages have left. */
ucmpi_bpool_t *ucmpi_bpool_new(void);
void ucmpi_bpool_free(ucmpi_bpool_t *pool);
/* The pool of the session numbered id, if one is attached (lib/core/session.c;
 * NULL: none, or the session is gone). */
ucmpi_bpool_t *ucmpi_session_bpool(uint32_t id);
/* The pool of a session handle, created on demand when `create`. */
ucmpi_bpool_t *ucmpi_session_bpool_of(MPI_Session s, int create);
/* Waits for every buffered message, then forgets the buffer. */
void ucmpi_bpool_detach(ucmpi_bpool_t *pool, void *buffer_addr,
                        MPI_Count *size);
/* Flushes: messages buffered before mark `upto` (ucmpi_bpool_mark). */
uint64_t ucmpi_bpool_mark(ucmpi_bpool_t *pool);
void ucmpi_bpool_wait(ucmpi_bpool_t *pool, uint64_t upto);
int ucmpi_bpool_busy(ucmpi_bpool_t *pool, uint64_t upto);
/* Buffered messages on comm still in flight (MPI_Comm_disconnect). */
int ucmpi_bsend_pending_on(ucmpi_comm_t *comm);
/* Completes nonblocking flushes that are done (lib/p2p/bsend_buffer.c). */
int ucmpi_bflush_reap(void);

#endif
