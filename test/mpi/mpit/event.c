/* MPI_T events: the event types and the source; an unexpected message
 * provoked (rank 0 sends, rank 1 probes until it is there, then receives)
 * reaches a callback registered at MPI_T_CB_REQUIRE_MPI_RESTRICTED, which
 * reads its elements, copy, timestamp and source; a collective's algorithm
 * event reaches a callback registered only at ASYNC_SIGNAL_SAFE (the least
 * demanding level at or above the context's); a registration whose only
 * callback requires nothing sees its events dropped and its dropped handler
 * told; handle_free's callback; the errors of misuse. */
#include "../mpitest.h"

#include <string.h>

typedef struct {
    int calls, src, tag, level;
    long long bytes;
    MPI_Count ts;
    int source;
} seen_t;

static void on_unexpected(MPI_T_event_instance in, MPI_T_event_registration r,
                          MPI_T_cb_safety level, void *user)
{
    seen_t *s = user;
    MPI_Count copy[3] = {0};
    MPI_Count bytes = -1;
    int src0 = -1;

    (void)r;
    s->calls++;
    s->level = level;
    MT_CHECK_RC(MPI_T_event_read(in, 0, &s->src));
    MT_CHECK_RC(MPI_T_event_read(in, 1, &s->tag));
    MT_CHECK_RC(MPI_T_event_read(in, 2, &bytes));
    s->bytes = (long long)bytes;
    MT_CHECK_RC(MPI_T_event_copy(in, copy));
    memcpy(&src0, &copy[0], sizeof(int));   /* displacements of get_info */
    MT_CHECK(src0 == s->src && copy[2] == bytes, "copy");
    MT_CHECK_RC(MPI_T_event_get_timestamp(in, &s->ts));
    MT_CHECK_RC(MPI_T_event_get_source(in, &s->source));
    MT_CHECK(MPI_T_event_read(in, 3, &bytes) == MPI_T_ERR_INVALID_INDEX,
             "element 3");
}

static void on_alg(MPI_T_event_instance in, MPI_T_event_registration r,
                   MPI_T_cb_safety level, void *user)
{
    seen_t *s = user;
    int size = 0;

    (void)r;
    (void)level;
    s->calls++;
    MT_CHECK_RC(MPI_T_event_read(in, 0, &s->tag));    /* collective id */
    MT_CHECK_RC(MPI_T_event_read(in, 2, &size));
    s->src = size;
}

static void never(MPI_T_event_instance in, MPI_T_event_registration r,
                  MPI_T_cb_safety level, void *user)
{
    (void)in;
    (void)r;
    (void)level;
    ((seen_t *)user)->calls++;
}

static MPI_Count dropped;
static void on_dropped(MPI_Count count, MPI_T_event_registration r,
                       int source, MPI_T_cb_safety level, void *user)
{
    (void)r;
    (void)source;
    (void)level;
    (void)user;
    dropped += count;
}

static int freed;
static void on_free(MPI_T_event_registration r, MPI_T_cb_safety level,
                    void *user)
{
    (void)r;
    (void)level;
    freed += *(int *)user;
}

static int index_of(const char *name)
{
    int idx = -1;
    MT_CHECK(MPI_T_event_get_index(name, &idx) == MPI_SUCCESS, "%s", name);
    return idx;
}

static void check_types(void)
{
    int n = 0, ns = 0, nel = 3;
    MPI_Datatype dts[3];
    MPI_Aint disp[3];
    MPI_T_source_order order = MPI_T_SOURCE_UNORDERED;
    MPI_Count tps = 0, maxt = 0, t0 = 0, t1 = 0;
    MPI_Info info = MPI_INFO_NULL;

    MT_CHECK_RC(MPI_T_event_get_num(&n));
    MT_CHECK(n == 3, "%d events", n);
    MT_CHECK_RC(MPI_T_event_get_info(index_of("ucmpi_unexpected_msg"), NULL,
                                     NULL, NULL, dts, disp, &nel, NULL, &info,
                                     NULL, NULL, NULL));
    MT_CHECK(nel == 3 && dts[0] == MPI_INT && dts[2] == MPI_COUNT &&
             disp[1] > disp[0], "elements %d", nel);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    MT_CHECK(MPI_T_event_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                  NULL, NULL, NULL, NULL) ==
             MPI_T_ERR_INVALID_INDEX, "index n");
    MT_CHECK_RC(MPI_T_source_get_num(&ns));
    MT_CHECK(ns == 1, "%d sources", ns);
    MT_CHECK_RC(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, &order, &tps,
                                      &maxt, NULL));
    MT_CHECK(order == MPI_T_SOURCE_ORDERED && tps > 0 && maxt > 0,
             "order %d tps %lld", (int)order, (long long)tps);
    MT_CHECK_RC(MPI_T_source_get_timestamp(0, &t0));
    MT_CHECK_RC(MPI_T_source_get_timestamp(0, &t1));
    MT_CHECK(t1 >= t0, "clock went back");
}

int main(int argc, char **argv)
{
    int provided, rank, size, x = 7, one = 1;
    seen_t ue = {0}, alg = {0}, nothing = {0};
    MPI_T_event_registration r_ue, r_alg, r_drop;
    MPI_Count before = 0;
    MPI_Request rq;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    check_types();

    MT_CHECK_RC(MPI_T_event_handle_alloc(index_of("ucmpi_unexpected_msg"),
                                         NULL, MPI_INFO_NULL, &r_ue));
    MT_CHECK_RC(MPI_T_event_register_callback(
        r_ue, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL, &ue,
        on_unexpected));
    MT_CHECK_RC(MPI_T_event_handle_alloc(index_of("ucmpi_unexpected_msg"),
                                         NULL, MPI_INFO_NULL, &r_drop));
    MT_CHECK_RC(MPI_T_event_register_callback(
        r_drop, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &nothing, never));
    MT_CHECK_RC(MPI_T_event_set_dropped_handler(r_drop, on_dropped));
    MT_CHECK(MPI_T_event_register_callback(r_ue, (MPI_T_cb_safety)9,
                                           MPI_INFO_NULL, NULL, never) ==
             MPI_T_ERR_INVALID, "bad safety level");

    MPI_Barrier(MPI_COMM_WORLD);
    ue.calls = 0;                 /* the barrier's own matches */
    before = dropped;
    if (rank == 0 && size > 1) {
        MPI_Send(&x, 1, MPI_INT, 1, 42, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int flag = 0;
        while (!flag)
            MPI_Iprobe(0, 42, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK(ue.calls == 1 && ue.src == 0 && ue.tag == 42 &&
                 ue.bytes == (long long)sizeof(int),
                 "calls %d src %d tag %d bytes %lld", ue.calls, ue.src,
                 ue.tag, ue.bytes);
        MT_CHECK(ue.level == MPI_T_CB_REQUIRE_MPI_RESTRICTED &&
                 ue.source == 0, "level %d source %d", ue.level, ue.source);
        MT_CHECK(dropped == before + 1 && nothing.calls == 0,
                 "dropped %lld, none-level calls %d",
                 (long long)(dropped - before), nothing.calls);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_T_event_handle_free(r_ue, &one, on_free));
    MT_CHECK_RC(MPI_T_event_handle_free(r_drop, &one, on_free));
    MT_CHECK(freed == 2, "free callbacks %d", freed);
    MT_CHECK(MPI_T_event_handle_free(r_ue, NULL, NULL) ==
             MPI_T_ERR_INVALID_HANDLE, "double free");

    /* a nonblocking barrier runs a message schedule (more than 1 rank) */
    MT_CHECK_RC(MPI_T_event_handle_alloc(index_of("ucmpi_coll_algorithm"),
                                         NULL, MPI_INFO_NULL, &r_alg));
    MT_CHECK_RC(MPI_T_event_register_callback(
        r_alg, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, MPI_INFO_NULL, &alg,
        on_alg));
    MPI_Ibarrier(MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (size > 1)
        MT_CHECK(alg.calls == 1 && alg.tag == 1 && alg.src == size,
                 "calls %d collective %d size %d", alg.calls, alg.tag,
                 alg.src);
    MT_CHECK_RC(MPI_T_event_handle_free(r_alg, NULL, NULL));
    MT_CHECK_RC(MPI_T_finalize());
    return mt_finish();
}
