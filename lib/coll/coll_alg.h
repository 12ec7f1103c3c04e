/* Algorithm tables, ended by a NULL name; UCMPI_<COLL>_ALGORITHM forces a row.
 * The "shm" row runs the blocking call if s == NULL (no segment: FALLBACK). */
#ifndef UCMPI_COLL_ALG_H
#define UCMPI_COLL_ALG_H

#include "coll/coll_drv.h"

/* Adds the algorithm's steps for the call *a to s. */
typedef int (*ucmpi_coll_build_fn_t)(ucmpi_sched_t *s,
                                     const ucmpi_coll_args_t *a);

typedef struct {
    int id;                   /* signs the schedules (sched.h) */
    const char *name;         /* what UCMPI_<COLL>_ALGORITHM accepts */
    const char *desc;
    ucmpi_coll_build_fn_t build;
} ucmpi_coll_alg_t;

/* The caller's contribution to a reduction: rbuf for MPI_IN_PLACE. */
static inline const void *ucmpi_coll_mine(const ucmpi_coll_args_t *a)
{
    return a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
}

/* What the shm rows say of themselves. */
#define UCMPI_COLL_SHM_DESC \
    "on-node shared segment: flags and buffers, no messages (blocking, small)"

/* ucmpi_tune's listing (exported): while ucmpi_coll_alg_listing is set,
 * each select remembers its table, and ucmpi_coll_alg_rows gives the rows
 * (ids, names; at most max) of collective `coll` (its knob's prefix, any
 * case: "bcast") once one of its calls selected, else 0. */
extern __attribute__((visibility("default"))) int ucmpi_coll_alg_listing;
__attribute__((visibility("default")))
int ucmpi_coll_alg_rows(const char *coll, int *ids, const char **names,
                        int max);

/* The row forced by tunable `knob`, or NULL (unset, "auto", or an unknown
 * name, reported once). */
const ucmpi_coll_alg_t *ucmpi_coll_alg_forced(const ucmpi_coll_alg_t *tab,
                                              const char *knob);
/* The row a tuning file's rule (coll_tune_file.c, docs/tuning.md) gives the
 * collective of `knob` at n ranks and `bytes` (the select's own measure),
 * or NULL: none loaded, no rule matches, or it names no schedule row. */
extern int ucmpi_coll_tune_nrules;
const ucmpi_coll_alg_t *ucmpi_coll_tuned_find(const ucmpi_coll_alg_t *tab,
                                              const char *knob, int n,
                                              size_t bytes);
static inline const ucmpi_coll_alg_t *
ucmpi_coll_tuned(const ucmpi_coll_alg_t *tab, const char *knob, int n,
                 size_t bytes)
{
    if (__builtin_expect(ucmpi_coll_tune_nrules == 0, 1))
        return NULL;
    return ucmpi_coll_tuned_find(tab, knob, n, bytes);
}

/* The row of id (the first row if none). */
const ucmpi_coll_alg_t *ucmpi_coll_alg_by_id(const ucmpi_coll_alg_t *tab,
                                             int id);
/* Names row id of tab as what s runs, the signature unchanged
 * (ucmpi_sched_name_run: MPI_T's ucmpi_coll_alg_<coll> counts it). */
void ucmpi_coll_alg_name_run(ucmpi_sched_t *s, const ucmpi_coll_alg_t *tab,
                             int id);
/* Signs s with row id of tab and shape (ucmpi_sched_sign). */
void ucmpi_coll_alg_sign(ucmpi_sched_t *s, const ucmpi_coll_alg_t *tab,
                         int id, unsigned shape);

/* A start's tail: the schedule cached for key, else a new one built by alg
 * (signed with sign's row); inline, the smallest calls run it every time. */
static inline int ucmpi_coll_alg_run(const ucmpi_coll_alg_t *alg,
                                     ucmpi_coll_args_t *a,
                                     const ucmpi_sched_key_t *key,
                                     const ucmpi_coll_alg_t *sign,
                                     unsigned shape)
{
    ucmpi_comm_t *comm = a->comm;
    ucmpi_sched_t *s;

    if (key != NULL && (s = ucmpi_coll_cached(comm, a->mode, key)) != NULL)
        return ucmpi_coll_run(comm, s, MPI_SUCCESS, a->mode, a->req);
    if ((s = ucmpi_sched_create(comm)) == NULL)
        return ucmpi_coll_err(comm, MPI_ERR_NO_MEM, "out of memory");
    if (sign != NULL)
        ucmpi_coll_alg_sign(s, sign, alg->id, shape);
    else if (key != NULL)         /* (keys of these name their table) */
        ucmpi_coll_alg_name_run(s, key->coll, alg->id);
    return ucmpi_coll_run_new(comm, s, alg->build(s, a), a->mode, a->req,
                              key);
}

#endif
