/* Point-to-point internals shared by lib/p2p*.c, probe, persistent and
 * buffered sends. */
#ifndef UCMPI_P2P_H
#define UCMPI_P2P_H

#include "ucmpi.h"
#include <stdlib.h>

/* p2p.mode of a receive of a message matched by MPI_(I)mprobe: the
 * synchronous sender was acknowledged then, not again at the receive. */
#define UCMPI_RECV_ACKED (-1)

int ucmpi_send_mode(const void *buf, MPI_Count count, MPI_Datatype dt,
                    int dest, int tag, ucmpi_comm_t *comm, int ctx_sub,
                    int mode);
int ucmpi_p2p_start_send(ucmpi_request_t *r, ucmpi_comm_t *comm, int mode);
int ucmpi_p2p_start_recv(ucmpi_request_t *r, ucmpi_comm_t *comm);
void ucmpi_p2p_set_proc_null(ucmpi_request_t *r);
void ucmpi_p2p_queue_ack(ucmpi_request_t *req, uint64_t sender_tag);
int ucmpi_p2p_check_send(const void *buf, MPI_Count count, MPI_Datatype dt,
                         int dest, int tag, MPI_Comm comm, const char *fn);
int ucmpi_p2p_check_recv(const void *buf, MPI_Count count, MPI_Datatype dt,
                         int src, int tag, MPI_Comm comm, const char *fn);
int ucmpi_p2p_report(MPI_Comm comm, int rc, const char *fn);
/* Buffered send of (buf, count, dt): copies into the attached buffer and
 * starts the transfer; MPI_ERR_BUFFER when it does not fit.  `user`, the
 * user's request (Ibsend, Bsend_init) or NULL, can then cancel it. */
int ucmpi_bsend_start(const void *buf, MPI_Count count, MPI_Datatype dt,
                      int dest, int tag, ucmpi_comm_t *comm,
                      ucmpi_request_t *user, const char *fn);

#endif
