/* The performance variables: one table over the counters the lower layers
 * keep (p2p_stats.h, coll_stats.h, rma_stats.h, ucx.h), built at the first
 * MPI_T_init_thread (the collectives' rows come from their id table). */
#include "mpit/mpit_pvar.h"
#include "p2p/p2p_stats.h"
#include "coll/coll_stats.h"
#include "coll/check/sched_sig.h"
#include "rma/rma_stats.h"
#include "ucp_glue/ucx.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define MAX_PVARS 64

static ucmpi_mpit_pvar_t table[MAX_PVARS];
static int npvars;
static char coll_list[640];       /* "0 comm management, 1 Barrier, ..." */
static char coll_descs[3][800];
static char alg_descs[UCMPI_COLL_STATS_COLLS][160];

int ucmpi_mpit_pvar_count(void)
{
    return npvars;
}

const ucmpi_mpit_pvar_t *ucmpi_mpit_pvar(int i)
{
    return i >= 0 && i < npvars ? &table[i] : NULL;
}

/* --- readers --- */

static uint64_t peer_field(const ucmpi_p2p_peer_stats_t *p, int field)
{
    return *(const uint64_t *)((const char *)p + (size_t)field);
}

void ucmpi_mpit_pvar_raw(const ucmpi_mpit_pvar_t *v, const int *peers, int n,
                         uint64_t *out)
{
    const ucmpi_p2p_stats_t *s = &ucmpi_p2p_stats;

    switch (v->kind) {
    case UCMPI_PVAR_ARRAY:
        for (int i = 0; i < n; i++)
            out[i] = v->src[(size_t)i * (size_t)v->stride];
        break;
    case UCMPI_PVAR_PEER:         /* one element per rank of the comm */
        for (int i = 0; i < n; i++)
            out[i] = peers[i] >= 0 && (unsigned)peers[i] < s->npeers
                         ? peer_field(&s->peer[peers[i]], v->field) : 0;
        break;
    case UCMPI_PVAR_PEER_SUM:
        out[0] = 0;
        for (unsigned r = 0; r < s->npeers; r++)
            out[0] += peer_field(&s->peer[r], v->field);
        break;
    case UCMPI_PVAR_POSTED_LEVEL:
        out[0] = s->recvs_posted > s->recvs_ended
                     ? s->recvs_posted - s->recvs_ended : 0;
        break;
    }
}

/* --- the table --- */

static ucmpi_mpit_pvar_t *add(const char *name, int cls, int cat,
                              const char *desc)
{
    ucmpi_mpit_pvar_t *v = &table[npvars++];

    snprintf(v->name, sizeof(v->name), "%s", name);
    v->cls = cls;
    v->cat = cat;
    v->desc = desc;
    v->bind = MPI_T_BIND_NO_OBJECT;
    v->continuous = 1;
    v->readonly = cls == MPI_T_PVAR_CLASS_LEVEL ||
                  cls == MPI_T_PVAR_CLASS_HIGHWATERMARK;
    v->n = 1;
    v->stride = 1;
    v->kind = UCMPI_PVAR_ARRAY;
    return v;
}

static void add_u64(const char *name, int cls, int cat, const char *desc,
                    const uint64_t *src)
{
    add(name, cls, cat, desc)->src = src;
}

static void add_peer(const char *name, int field, const char *what)
{
    ucmpi_mpit_pvar_t *v = add(name, MPI_T_PVAR_CLASS_COUNTER,
                               UCMPI_MPIT_CAT_P2P, what);
    v->kind = UCMPI_PVAR_PEER_SUM;
    v->field = field;
}

/* Per-rank counters bound to a communicator: startable, so a tool measures
 * a phase (MPI_T_pvar_start/stop); one element per rank of the group
 * messages go to (the remote group of an intercommunicator). */
static void add_peer_comm(const char *name, int field, const char *what)
{
    ucmpi_mpit_pvar_t *v = add(name, MPI_T_PVAR_CLASS_COUNTER,
                               UCMPI_MPIT_CAT_P2P, what);
    v->kind = UCMPI_PVAR_PEER;
    v->field = field;
    v->bind = MPI_T_BIND_MPI_COMM;
    v->continuous = 0;
}

static void add_p2p(void)
{
    ucmpi_p2p_stats_t *s = &ucmpi_p2p_stats;

    add_peer("ucmpi_msgs_sent", offsetof(ucmpi_p2p_peer_stats_t, sent_msgs),
             "messages this process sent (point-to-point and the messages "
             "of collectives, every communicator)");
    add_peer("ucmpi_bytes_sent", offsetof(ucmpi_p2p_peer_stats_t, sent_bytes),
             "bytes of the messages of ucmpi_msgs_sent");
    add_peer("ucmpi_msgs_recv", offsetof(ucmpi_p2p_peer_stats_t, recv_msgs),
             "messages this process received (point-to-point and "
             "collectives, every communicator)");
    add_peer("ucmpi_bytes_recv", offsetof(ucmpi_p2p_peer_stats_t, recv_bytes),
             "bytes of the messages of ucmpi_msgs_recv");
    add_peer_comm("ucmpi_msgs_sent_peer",
                  offsetof(ucmpi_p2p_peer_stats_t, sent_msgs),
                  "messages sent to each rank of the communicator (traffic "
                  "on every communicator, by the process it reaches)");
    add_peer_comm("ucmpi_bytes_sent_peer",
                  offsetof(ucmpi_p2p_peer_stats_t, sent_bytes),
                  "bytes sent to each rank of the communicator");
    add_peer_comm("ucmpi_msgs_recv_peer",
                  offsetof(ucmpi_p2p_peer_stats_t, recv_msgs),
                  "messages received from each rank of the communicator");
    add_peer_comm("ucmpi_bytes_recv_peer",
                  offsetof(ucmpi_p2p_peer_stats_t, recv_bytes),
                  "bytes received from each rank of the communicator");
    add_u64("ucmpi_sends_immediate", MPI_T_PVAR_CLASS_COUNTER,
            UCMPI_MPIT_CAT_P2P, "tagged sends UCX completed when posted "
            "(eager; internal acknowledgements included)",
            &ucmpi_ucx_stats.sends_now);
    add_u64("ucmpi_sends_kept", MPI_T_PVAR_CLASS_COUNTER, UCMPI_MPIT_CAT_P2P,
            "tagged sends UCX kept after posting (rendezvous, or queued "
            "behind earlier sends)", &ucmpi_ucx_stats.sends_kept);
    add("ucmpi_recvs_posted", MPI_T_PVAR_CLASS_LEVEL, UCMPI_MPIT_CAT_P2P,
        "receives posted and not yet matched (the posted-receive queue)")
        ->kind = UCMPI_PVAR_POSTED_LEVEL;
    add_u64("ucmpi_recvs_posted_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK,
            UCMPI_MPIT_CAT_P2P, "highest ucmpi_recvs_posted since MPI_Init",
            &s->posted_hwm);
    add_u64("ucmpi_unexpected_matched", MPI_T_PVAR_CLASS_COUNTER,
            UCMPI_MPIT_CAT_P2P, "receives whose message had already "
            "arrived (unexpected eager messages; UCX keeps that queue, its "
            "length is not visible)", &s->unexpected);
    add_u64("ucmpi_ucx_progress", MPI_T_PVAR_CLASS_COUNTER,
            UCMPI_MPIT_CAT_P2P, "calls of the UCX worker's progress",
            &ucmpi_ucx_stats.progress);
    ucmpi_mpit_pvar_t *t = add("ucmpi_wait_time", MPI_T_PVAR_CLASS_TIMER,
                               UCMPI_MPIT_CAT_P2P,
                               "seconds blocked in MPI calls waiting for "
                               "communication (idle turns of the wait "
                               "loops); startable");
    t->src = &s->wait_ticks;
    t->continuous = 0;
    ucmpi_mpit_pvar_t *h = add("ucmpi_msg_sizes", MPI_T_PVAR_CLASS_COUNTER,
                               UCMPI_MPIT_CAT_P2P,
                               "sent messages by size: element 0 empty, "
                               "element b in [2^(b-1), 2^b) bytes");
    h->src = s->size_hist;
    h->n = UCMPI_P2P_SIZE_BINS;
}

static void add_coll(void)
{
    ucmpi_coll_stats_t *c = &ucmpi_coll_stats;
    const char *other = ucmpi_coll_sig_coll_name(0);
    int ncoll = 1, len = 0;

    len += snprintf(coll_list, sizeof(coll_list), "0 communicator management");
    while (ncoll < UCMPI_COLL_STATS_COLLS &&
           strcmp(ucmpi_coll_sig_coll_name((unsigned)ncoll), other) != 0) {
        const char *nm = ucmpi_coll_sig_coll_name((unsigned)ncoll);
        if (len < (int)sizeof(coll_list))
            len += snprintf(coll_list + len, sizeof(coll_list) - (size_t)len,
                            ", %d %s", ncoll, nm);
        snprintf(alg_descs[ncoll], sizeof(alg_descs[ncoll]),
                 "schedule runs of MPI_%s by algorithm: element i is the row "
                 "of id i of UCMPI_%s_ALGORITHM's table, the last others", nm,
                 nm);
        char name[64];
        snprintf(name, sizeof(name), "ucmpi_coll_alg_%s", nm);
        for (char *p = name; *p; p++)
            *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
        ucmpi_mpit_pvar_t *v = add(name, MPI_T_PVAR_CLASS_COUNTER,
                                   UCMPI_MPIT_CAT_COLL, alg_descs[ncoll]);
        v->src = c->alg[ncoll];
        v->n = UCMPI_COLL_STATS_ALGS;
        ncoll++;
    }
    static const struct {
        const char *name, *what;
        size_t off;
    } per_coll[3] = {
        {"ucmpi_coll_calls", "collective calls (all forms)",
         offsetof(ucmpi_coll_stats_t, calls)},
        {"ucmpi_coll_noschedule", "blocking collective calls that sent no "
         "message: the on-node shared-memory path (or nothing to move)",
         offsetof(ucmpi_coll_stats_t, noschedule)},
        {"ucmpi_coll_bytes", "bytes of the receive buffers of uniform "
         "collective calls (count x type)",
         offsetof(ucmpi_coll_stats_t, bytes)},
    };
    for (int i = 0; i < 3; i++) {
        snprintf(coll_descs[i], sizeof(coll_descs[i]),
                 "%s, by collective: %s", per_coll[i].what, coll_list);
        ucmpi_mpit_pvar_t *v = add(per_coll[i].name, MPI_T_PVAR_CLASS_COUNTER,
                                   UCMPI_MPIT_CAT_COLL, coll_descs[i]);
        v->src = (const uint64_t *)((const char *)c + per_coll[i].off);
        v->n = ncoll;
    }
    add_u64("ucmpi_coll_runs", MPI_T_PVAR_CLASS_COUNTER, UCMPI_MPIT_CAT_COLL,
            "message schedule runs, all collectives", &c->runs);
}

static void add_rma(void)
{
    ucmpi_mpit_pvar_t *v;

    v = add("ucmpi_rma_ops", MPI_T_PVAR_CLASS_COUNTER, UCMPI_MPIT_CAT_RMA,
            "one-sided operations: put, get, accumulate (all forms), "
            "fetch_and_op + compare_and_swap");
    v->src = ucmpi_rma_stats.ops;
    v->n = UCMPI_RMA_STAT_OPS;
    v = add("ucmpi_rma_syncs", MPI_T_PVAR_CLASS_COUNTER, UCMPI_MPIT_CAT_RMA,
            "synchronisation calls: fence, post/start/complete/wait/test, "
            "lock/unlock (all forms), flush (all forms) + win_sync");
    v->src = ucmpi_rma_stats.syncs;
    v->n = UCMPI_RMA_STAT_SYNCS;
}

void ucmpi_mpit_pvar_table_init(void)
{
    if (npvars > 0)
        return;
    add_p2p();
    add_coll();
    add_rma();
}
