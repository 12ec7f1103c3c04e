/* Point-to-point for the other layers (collectives, communicator management,
 * RMA): sends and receives on a sub-context of a comm. */
#ifndef UCMPI_P2P_PT2PT_H
#define UCMPI_P2P_PT2PT_H

#include "p2p/request.h"

enum { UCMPI_SEND_STANDARD, UCMPI_SEND_SYNC, UCMPI_SEND_READY,
       UCMPI_SEND_BUFFERED };

/* Nonblocking send/recv on sub-context `ctx_sub` (UCMPI_CTX_*) of comm; comm
 * (intercomm: remote) ranks, 0 <= tag <= UCMPI_TAG_MAX; *req always set. */
int ucmpi_isend(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, ucmpi_comm_t *comm, int ctx_sub, int mode,
                ucmpi_request_t **req);
int ucmpi_irecv(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                int tag, ucmpi_comm_t *comm, int ctx_sub,
                ucmpi_request_t **req);
/* Blocking helpers. */
int ucmpi_send(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
               int tag, ucmpi_comm_t *comm, int ctx_sub);
int ucmpi_recv(void *buf, MPI_Count count, MPI_Datatype dt, int src,
               int tag, ucmpi_comm_t *comm, int ctx_sub, MPI_Status *st);

#define UCMPI_TAG_MAX ((1 << 24) - 1)

#endif
