/* Dynamic processes (lib/comm/dpm_*.c): processes of other jobs reached as
 * world ranks past the job's own, ports, connect/accept; docs/architecture.md,
 * "lib/comm internals: dynamic processes". */
#ifndef UCMPI_COMM_DPM_H
#define UCMPI_COMM_DPM_H

#include "comm/comm.h"
#include "p2p/tag.h"

/* What a process tells another job about itself (fixed size: the group
 * exchanges are allgathers and swaps of whole tables). */
#define UCMPI_DPM_ADDR_MAX 1024
#define UCMPI_DPM_NSPACE_MAX 256
typedef struct {
    char nspace[UCMPI_DPM_NSPACE_MAX];  /* its job */
    int32_t rank, pid;                  /* in its job */
    uint64_t host;                      /* hash of its host name */
    uint32_t addr_len, pad;
    unsigned char addr[UCMPI_DPM_ADDR_MAX];  /* UCX worker address */
} ucmpi_dpm_proc_t;

/* The context of the connection handshakes: past every communicator's and
 * below the finalize barrier's (lib/core/failure.c). */
#define UCMPI_DPM_CTX (UCMPI_TAG_MAX_CTX - 1)

/* This process's description; 0 or -1. */
int ucmpi_dpm_self(ucmpi_dpm_proc_t *p);
/* World rank of the process p describes: its own for this job's, else one
 * past world_size given at its first sight; -1 when the table is full. */
int ucmpi_dpm_proc_add(const ucmpi_dpm_proc_t *p);
uint64_t ucmpi_dpm_host_hash(const char *host);
/* Lets go of the other jobs' processes that no group names any more (after
 * MPI_Comm_disconnect, or when the table is full): their endpoints close
 * and their world ranks may name other processes. */
void ucmpi_dpm_sweep(void);
/* A process as every job names it: (namespace, rank in its job). */
typedef struct {
    char nspace[UCMPI_DPM_NSPACE_MAX];
    int32_t rank;
} ucmpi_dpm_ident_t;
/* World rank -> identity (0, or -1 for an unknown rank); identity -> world
 * rank here (-1: a process never seen); order of two world ranks by
 * identity (the same in every job). */
int ucmpi_dpm_ident(int world, ucmpi_dpm_ident_t *id);
int ucmpi_dpm_resolve(const ucmpi_dpm_ident_t *id);
int ucmpi_dpm_ident_cmp(int a, int b);
/* Description of world rank r as any process can add it (0 or -1). */
int ucmpi_dpm_describe(int world, ucmpi_dpm_proc_t *p);

/* Ports (dpm_port.c): a parsed port name. */
typedef struct {
    uint32_t id;              /* unique among the owner's ports */
    ucmpi_dpm_proc_t owner;   /* the process that opened it */
} ucmpi_dpm_port_t;
/* 0, or -1 with a reason in why[n] (not a port name of ours). */
int ucmpi_dpm_port_parse(const char *name, ucmpi_dpm_port_t *p, char *why,
                         size_t n);
/* This process opened the port and did not close it. */
int ucmpi_dpm_port_open_here(uint32_t id);

/* The roots' handshakes (dpm_connect.c): the bridge and conversation tag,
 * or an MPI error code with the reason in why[n].  accept gives up when
 * gone(arg) says the expected peer cannot come any more (may be NULL). */
int ucmpi_dpm_root_accept(const char *port, ucmpi_comm_t **bridge, int *conv,
                          char *why, size_t n, int (*gone)(void *),
                          void *arg);
int ucmpi_dpm_root_connect(const char *port, ucmpi_comm_t **bridge,
                           int *conv, char *why, size_t n);
/* A new port of this process (MPI_Open_port without the call's checks):
 * its name, and its id for ucmpi_dpm_port_close. */
int ucmpi_dpm_port_new(char *name, uint32_t *id);
void ucmpi_dpm_port_close(uint32_t id);

/* Collective over comm once its root met the other group's root (dpm_connect.c):
 * bridge (root only; NULL when root_rc, the handshake's outcome, failed) is
 * the roots' two-process comm (acceptor rank 0), conv their conversation's
 * tag, my_side this root's rank in it.  The intercommunicator, or an error
 * code (the caller reports). */
int ucmpi_dpm_join(ucmpi_comm_t *comm, int root, ucmpi_comm_t *bridge,
                   int conv, int my_side, int root_rc, ucmpi_comm_t **out);

#endif
