/* MPI_T (MPI-4.1 ch. 15): every call runs under one mutex between enter and
 * leave; MPI_T works before MPI_Init and after MPI_Finalize. */
#ifndef UCMPI_MPIT_H
#define UCMPI_MPIT_H

#include "core/base.h"

/* Takes the MPI_T lock (recursive: event callbacks run under it and may
 * call MPI_T); MPI_T_ERR_NOT_INITIALIZED (lock not held) when no
 * MPI_T_init_thread is in effect. */
int ucmpi_mpit_enter(void);
/* Releases the lock and passes rc through. */
int ucmpi_mpit_leave(int rc);
/* A call on an empty set: `err` once MPI_T is initialised. */
int ucmpi_mpit_empty(int err);
/* PMPI_<f>(params) and its MPI_ alias, failing with err: nothing to name. */
#define UCMPI_MPIT_STR(x) #x
#define UCMPI_MPIT_STUB(f, err, ...)                                         \
    _Pragma(UCMPI_MPIT_STR(weak MPI_##f = PMPI_##f))                         \
    int PMPI_##f(__VA_ARGS__) { return ucmpi_mpit_empty(err); }
/* A call whose answer is one number: *out = value (out checked). */
int ucmpi_mpit_count(int *out, int value);

/* name/desc outputs as MPI_T specifies: len NULL: nothing; *len 0 or dst NULL:
 * needed length; else <= *len - 1 chars + NUL, *len = what was written. */
void ucmpi_mpit_strcpy(char *dst, int *len, const char *src);

/* One more (on) or one fewer user of the counters the lower layers keep
 * only on demand (per peer, sizes, wait time, collective calls). */
void ucmpi_mpit_counting(int on);

/* Frees every handle and session; the last MPI_T_finalize calls these. */
void ucmpi_mpit_cvar_cleanup(void);
void ucmpi_mpit_pvar_cleanup(void);
void ucmpi_mpit_event_cleanup(void);

#endif
