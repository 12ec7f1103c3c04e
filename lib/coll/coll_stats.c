/* The collective counters (coll_stats.h) and where the engine and the
 * driver feed them. */
#include "coll/coll_stats.h"
#include "coll/coll_drv.h"
#include "coll/sched_impl.h"
#include "coll/check/sched_sig.h"
#include "p2p/p2p_stats.h"

ucmpi_coll_stats_t ucmpi_coll_stats;

static inline unsigned alg_col(int alg)
{
    return alg >= 0 && alg < UCMPI_COLL_STATS_ALGS - 1
               ? (unsigned)alg : UCMPI_COLL_STATS_ALGS - 1;
}

const char *ucmpi_coll_stats_alg_name(unsigned coll, int alg)
{
    const ucmpi_coll_stats_t *st = &ucmpi_coll_stats;

    if (coll >= UCMPI_COLL_STATS_COLLS || st->tab[coll] == NULL)
        return NULL;
    for (int i = 0; i < st->nrows[coll]; i++) {
        const struct { int id; const char *name; } *r =
            (const void *)((const char *)st->tab[coll] +
                           (size_t)i * st->row[coll]);
        if (r->name != NULL && r->id == alg)
            return r->name;
    }
    return NULL;
}

void ucmpi_coll_count_run(ucmpi_sched_t *s)
{
    ucmpi_coll_stats_t *st = &ucmpi_coll_stats;
    unsigned c = s->names.coll % UCMPI_COLL_STATS_COLLS;

    st->runs++;
    st->alg[c][alg_col(s->names.alg)]++;
    if (__builtin_expect(st->tab[c] == NULL && s->names.tab != NULL, 0)) {
        st->row[c] = s->names.row;
        st->nrows[c] = s->names.n;
        st->tab[c] = s->names.tab;
    }
    if (__builtin_expect(st->on_alg != NULL, 0))
        st->on_alg(s->comm, c, s->comm->is_inter ? -1 : s->names.alg,
                   ucmpi_coll_stats_alg_name(c, s->names.alg));
}

int ucmpi_coll_start_counted(int (*start)(ucmpi_coll_args_t *a),
                             ucmpi_coll_args_t *a)
{
    ucmpi_coll_stats_t *st = &ucmpi_coll_stats;
    uint64_t runs = st->runs;
    int rc = start(a);

    if (rc != MPI_SUCCESS)
        return rc;
    unsigned c = ucmpi_coll_sig_comm_id(a->comm) % UCMPI_COLL_STATS_COLLS;
    st->calls[c]++;
    ucmpi_p2p_ctx_stats_t *row = ucmpi_p2p_ctx_row(a->comm->ctx);
    row->coll_calls++;
    if (a->rdt != NULL && a->rcount > 0 && a->rblk == NULL) {
        uint64_t b = (uint64_t)a->rcount * (uint64_t)a->rdt->size;
        st->bytes[c] += b;
        row->coll_bytes += b;
    }
    if (a->mode == UCMPI_COLL_BLOCKING && runs == st->runs)
        st->noschedule[c]++;
    return rc;
}
