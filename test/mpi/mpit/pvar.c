/* MPI_T performance variables against known traffic: a ring of N messages
 * of M bytes read exactly N and N*M per peer through handles bound to
 * MPI_COMM_WORLD and to a split communicator; continuous vs startable
 * handles, reset, readreset, write; the posted-receive level and its
 * high-water mark; an unexpected message; a timer after a blocked receive;
 * collective calls by collective and algorithm; RMA operations and
 * synchronisations; categories; the errors of misuse. */
#include "../mpitest.h"

#include <string.h>
#include <unistd.h>

#define N 5
#define M 100

static MPI_T_pvar_session ses;

static int pvar(const char *name, int cls, int want_bind, int want_cont,
                int want_ro)
{
    int idx = -1, c = -1, bind = -1, ro = -1, cont = -1, atomic = -1;
    MPI_Datatype dt = MPI_DATATYPE_NULL;

    MT_CHECK(MPI_T_pvar_get_index(name, cls, &idx) == MPI_SUCCESS, "%s", name);
    if (idx < 0)
        return -1;
    MT_CHECK_RC(MPI_T_pvar_get_info(idx, NULL, NULL, NULL, &c, &dt, NULL, NULL,
                                    NULL, &bind, &ro, &cont, &atomic));
    MT_CHECK(c == cls && bind == want_bind && cont == want_cont &&
             ro == want_ro && atomic == 0, "%s: class %d bind %d cont %d "
             "ro %d atomic %d", name, c, bind, cont, ro, atomic);
    MT_CHECK(dt == (cls == MPI_T_PVAR_CLASS_TIMER ? MPI_DOUBLE
                                                  : MPI_UNSIGNED_LONG_LONG),
             "%s: datatype", name);
    return idx;
}

static MPI_T_pvar_handle alloc(int idx, void *obj, int want)
{
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    int count = -1;

    MT_CHECK_RC(MPI_T_pvar_handle_alloc(ses, idx, obj, &h, &count));
    MT_CHECK(count == want, "count %d, want %d", count, want);
    return h;
}

static unsigned long long read1(MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ULL;
    MT_CHECK_RC(MPI_T_pvar_read(ses, h, &v));
    return v;
}

/* Element of collective `name` in the per-collective variables, from the
 * list their description gives ("..., 13 Allreduce, ..."). */
static int coll_id(int idx, const char *name)
{
    char desc[1024], key[64];
    int len = sizeof(desc), id = -1;

    MT_CHECK_RC(MPI_T_pvar_get_info(idx, NULL, NULL, NULL, NULL, NULL, NULL,
                                    desc, &len, NULL, NULL, NULL, NULL));
    snprintf(key, sizeof(key), " %s,", name);
    char *p = strstr(desc, key);
    MT_CHECK(p != NULL, "%s not in %s", name, desc);
    while (p != NULL && p > desc && p[-1] >= '0' && p[-1] <= '9')
        p--;
    if (p != NULL)
        id = atoi(p);
    return id;
}

/* Ring of N messages of M bytes on comm; the bound, startable per-peer
 * handles count exactly that traffic between start and stop. */
static void check_ring(MPI_Comm comm)
{
    int rank, size, n = 0;
    char buf[M];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    static const char *names[4] = {"ucmpi_msgs_sent_peer",
                                   "ucmpi_bytes_sent_peer",
                                   "ucmpi_msgs_recv_peer",
                                   "ucmpi_bytes_recv_peer"};
    MPI_T_pvar_handle h[4];
    unsigned long long v[4][64];
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    for (int k = 0; k < 4; k++)
        h[k] = alloc(pvar(names[k], MPI_T_PVAR_CLASS_COUNTER,
                          MPI_T_BIND_MPI_COMM, 0, 0), &comm, size);
    MPI_Barrier(comm);
    MT_CHECK_RC(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES));
    memset(buf, rank, sizeof(buf));
    for (int i = 0; i < N; i++)
        MPI_Sendrecv_replace(buf, M, MPI_CHAR, right, 7, left, 7, comm,
                             MPI_STATUS_IGNORE);
    for (int k = 0; k < 4; k++)
        MT_CHECK_RC(MPI_T_pvar_stop(ses, h[k]));
    MPI_Barrier(comm);            /* stopped: not counted */
    for (int k = 0; k < 4; k++)
        MT_CHECK_RC(MPI_T_pvar_read(ses, h[k], v[k]));
    for (int r = 0; r < size && size <= 64; r++) {
        unsigned long long want_s = r == right ? N : 0;
        unsigned long long want_r = r == left ? N : 0;
        MT_CHECK(v[0][r] == want_s && v[1][r] == want_s * M, "sent to %d: "
                 "%llu msgs %llu bytes", r, v[0][r], v[1][r]);
        MT_CHECK(v[2][r] == want_r && v[3][r] == want_r * M, "recv from %d: "
                 "%llu msgs %llu bytes", r, v[2][r], v[3][r]);
        n++;
    }
    /* reset, write, readreset on a counter */
    MT_CHECK_RC(MPI_T_pvar_reset(ses, h[0]));
    MT_CHECK_RC(MPI_T_pvar_read(ses, h[0], v[0]));
    for (int r = 0; r < size && size <= 64; r++)
        MT_CHECK(v[0][r] == 0, "after reset: %llu", v[0][r]);
    for (int r = 0; r < size && size <= 64; r++)
        v[0][r] = 40 + (unsigned)r;
    MT_CHECK_RC(MPI_T_pvar_write(ses, h[0], v[0]));
    MT_CHECK_RC(MPI_T_pvar_readreset(ses, h[0], v[1]));
    MT_CHECK_RC(MPI_T_pvar_read(ses, h[0], v[2]));
    for (int r = 0; r < size && size <= 64; r++)
        MT_CHECK(v[1][r] == 40 + (unsigned)r && v[2][r] == 0,
                 "write/readreset: %llu %llu", v[1][r], v[2][r]);
    for (int k = 0; k < 4; k++) {
        MT_CHECK_RC(MPI_T_pvar_handle_free(ses, &h[k]));
        MT_CHECK(h[k] == MPI_T_PVAR_HANDLE_NULL, "handle not reset");
    }
}

/* A continuous total: N sends to self read exactly N from allocation on. */
static void check_totals(void)
{
    int rank;
    char buf[M];
    MPI_Request rq[N];
    MPI_T_pvar_handle sent, bytes;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sent = alloc(pvar("ucmpi_msgs_sent", MPI_T_PVAR_CLASS_COUNTER,
                      MPI_T_BIND_NO_OBJECT, 1, 0), NULL, 1);
    bytes = alloc(pvar("ucmpi_bytes_sent", MPI_T_PVAR_CLASS_COUNTER,
                       MPI_T_BIND_NO_OBJECT, 1, 0), NULL, 1);
    MT_CHECK(MPI_T_pvar_start(ses, sent) == MPI_T_ERR_PVAR_NO_STARTSTOP,
             "start of a continuous variable");
    for (int i = 0; i < N; i++)
        MPI_Irecv(buf, M, MPI_CHAR, rank, i, MPI_COMM_WORLD, &rq[i]);
    for (int i = 0; i < N; i++)
        MPI_Send(buf, M, MPI_CHAR, rank, i, MPI_COMM_WORLD);
    MPI_Waitall(N, rq, MPI_STATUSES_IGNORE);
    MT_CHECK(read1(sent) == N && read1(bytes) == N * M, "sent %llu %llu",
             read1(sent), read1(bytes));
    MPI_T_pvar_handle_free(ses, &sent);
    MPI_T_pvar_handle_free(ses, &bytes);
}

/* K receives posted and not matched: the level reads K, then 0; the
 * high-water mark stays >= K; both are read-only. */
static void check_level(void)
{
    enum { K = 4 };
    int rank, x = 0, y[K];
    MPI_Request rq[K];
    MPI_T_pvar_handle lv, hw;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    lv = alloc(pvar("ucmpi_recvs_posted", MPI_T_PVAR_CLASS_LEVEL,
                    MPI_T_BIND_NO_OBJECT, 1, 1), NULL, 1);
    hw = alloc(pvar("ucmpi_recvs_posted_hwm",
                    MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_T_BIND_NO_OBJECT, 1,
                    1), NULL, 1);
    unsigned long long before = read1(lv);
    for (int i = 0; i < K; i++)
        MPI_Irecv(&y[i], 1, MPI_INT, MPI_ANY_SOURCE, 900 + i, MPI_COMM_WORLD,
                  &rq[i]);
    MT_CHECK(read1(lv) == before + K, "level %llu, want %llu", read1(lv),
             before + K);
    MT_CHECK(read1(hw) >= before + K, "hwm %llu", read1(hw));
    for (int i = 0; i < K; i++)
        MPI_Send(&x, 1, MPI_INT, rank, 900 + i, MPI_COMM_WORLD);
    MPI_Waitall(K, rq, MPI_STATUSES_IGNORE);
    MT_CHECK(read1(lv) == before, "level after %llu", read1(lv));
    MT_CHECK(MPI_T_pvar_reset(ses, lv) == MPI_T_ERR_PVAR_NO_WRITE, "reset");
    MT_CHECK(MPI_T_pvar_write(ses, hw, &x) == MPI_T_ERR_PVAR_NO_WRITE, "write");
    MPI_T_pvar_handle_free(ses, &lv);
    MPI_T_pvar_handle_free(ses, &hw);
}

/* Rank 1 probes until rank 0's message is there, then receives it: one
 * unexpected match.  Rank 0 sleeps before a second message: rank 1's
 * started timer moves while it is blocked. */
static void check_unexpected_and_timer(void)
{
    int rank, size, x = 5;
    MPI_T_pvar_handle ue, tm;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);  /* (its receives may match at once) */
    ue = alloc(pvar("ucmpi_unexpected_matched", MPI_T_PVAR_CLASS_COUNTER,
                    MPI_T_BIND_NO_OBJECT, 1, 0), NULL, 1);
    tm = alloc(pvar("ucmpi_wait_time", MPI_T_PVAR_CLASS_TIMER,
                    MPI_T_BIND_NO_OBJECT, 0, 0), NULL, 1);
    if (rank == 0 && size > 1) {
        MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        usleep(100000);
        MPI_Send(&x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int flag = 0;
        double t = -1;
        while (!flag)
            MPI_Iprobe(0, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK(read1(ue) == 1, "unexpected %llu", read1(ue));
        MT_CHECK_RC(MPI_T_pvar_start(ses, tm));
        MPI_Recv(&x, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK_RC(MPI_T_pvar_stop(ses, tm));
        MT_CHECK_RC(MPI_T_pvar_read(ses, tm, &t));
        MT_CHECK(t > 0, "blocked %g s", t);
    }
    MPI_T_pvar_handle_free(ses, &ue);
    MPI_T_pvar_handle_free(ses, &tm);
}

/* Three 8-byte allreduces: calls +3; each ran a schedule (by algorithm)
 * or none (shm). */
static void check_coll(void)
{
    int calls = pvar("ucmpi_coll_calls", MPI_T_PVAR_CLASS_COUNTER,
                     MPI_T_BIND_NO_OBJECT, 1, 0);
    int nosched = pvar("ucmpi_coll_noschedule", MPI_T_PVAR_CLASS_COUNTER,
                       MPI_T_BIND_NO_OBJECT, 1, 0);
    int alg = pvar("ucmpi_coll_alg_allreduce", MPI_T_PVAR_CLASS_COUNTER,
                   MPI_T_BIND_NO_OBJECT, 1, 0);
    int id = coll_id(calls, "Allreduce"), count = 0;
    MPI_T_pvar_handle hc, hn, ha;
    unsigned long long c[64], ns[64], a[64];
    double x = 1, y = 0;

    MT_CHECK(id > 0 && id < 64, "Allreduce id %d", id);
    MT_CHECK_RC(MPI_T_pvar_handle_alloc(ses, calls, NULL, &hc, &count));
    MT_CHECK(count > id && count <= 64, "count %d", count);
    MT_CHECK_RC(MPI_T_pvar_handle_alloc(ses, nosched, NULL, &hn, &count));
    MT_CHECK_RC(MPI_T_pvar_handle_alloc(ses, alg, NULL, &ha, &count));
    MT_CHECK(count == 16, "algorithms %d", count);
    for (int i = 0; i < 3; i++)
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_RC(MPI_T_pvar_read(ses, hc, c));
    MT_CHECK_RC(MPI_T_pvar_read(ses, hn, ns));
    MT_CHECK_RC(MPI_T_pvar_read(ses, ha, a));
    unsigned long long runs = 0;
    for (int i = 0; i < 16; i++)
        runs += a[i];
    MT_CHECK(id < 0 || c[id] == 3, "allreduce calls %llu", c[id]);
    MT_CHECK(id < 0 || runs + ns[id] == 3, "runs %llu + no schedule %llu",
             runs, ns[id]);
    MPI_T_pvar_handle_free(ses, &hc);
    MPI_T_pvar_handle_free(ses, &hn);
    MPI_T_pvar_handle_free(ses, &ha);
}

static void check_rma(void)
{
    int ops = pvar("ucmpi_rma_ops", MPI_T_PVAR_CLASS_COUNTER,
                   MPI_T_BIND_NO_OBJECT, 1, 0);
    int syncs = pvar("ucmpi_rma_syncs", MPI_T_PVAR_CLASS_COUNTER,
                     MPI_T_BIND_NO_OBJECT, 1, 0);
    MPI_T_pvar_handle ho = alloc(ops, NULL, 4), hs = alloc(syncs, NULL, 4);
    unsigned long long o[4], s[4];
    int rank, mem[4] = {0}, v = 1;
    MPI_Win win;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(&v, 1, MPI_INT, rank, 0, 1, MPI_INT, win);
    MPI_Put(&v, 1, MPI_INT, rank, 1, 1, MPI_INT, win);
    MPI_Get(&v, 1, MPI_INT, rank, 2, 1, MPI_INT, win);
    MPI_Accumulate(&v, 1, MPI_INT, rank, 3, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MT_CHECK_RC(MPI_T_pvar_read(ses, ho, o));
    MT_CHECK_RC(MPI_T_pvar_read(ses, hs, s));
    MT_CHECK(o[0] == 2 && o[1] == 1 && o[2] == 1 && o[3] == 0,
             "put %llu get %llu acc %llu atomic %llu", o[0], o[1], o[2], o[3]);
    MT_CHECK(s[0] == 2, "fences %llu", s[0]);
    MPI_T_pvar_handle_free(ses, &ho);
    MPI_T_pvar_handle_free(ses, &hs);
}

static void check_misuse(void)
{
    int idx = pvar("ucmpi_msgs_sent_peer", MPI_T_PVAR_CLASS_COUNTER,
                   MPI_T_BIND_MPI_COMM, 0, 0), count, n = 0, ncat = 0;
    MPI_T_pvar_handle h;
    MPI_Comm null = MPI_COMM_NULL;

    MT_CHECK(MPI_T_pvar_handle_alloc(ses, idx, NULL, &h, &count) ==
             MPI_T_ERR_INVALID_HANDLE, "bound to NULL");
    MT_CHECK(MPI_T_pvar_handle_alloc(ses, idx, &null, &h, &count) ==
             MPI_T_ERR_INVALID_HANDLE, "bound to MPI_COMM_NULL");
    MT_CHECK(MPI_T_pvar_get_index("ucmpi_msgs_sent_peer",
                                  MPI_T_PVAR_CLASS_LEVEL, &idx) ==
             MPI_T_ERR_INVALID_NAME, "wrong class");
    MT_CHECK(MPI_T_pvar_read(ses, MPI_T_PVAR_ALL_HANDLES, &n) ==
             MPI_T_ERR_INVALID_HANDLE, "read of all handles");
    /* every pvar is in exactly one category */
    MPI_T_pvar_get_num(&n);
    MPI_T_category_get_num(&ncat);
    int total = 0;
    for (int c = 0; c < ncat; c++) {
        int np = 0, ids[128];
        MPI_T_category_get_info(c, NULL, NULL, NULL, NULL, NULL, &np, NULL);
        MT_CHECK(np <= 128, "%d", np);
        MT_CHECK_RC(MPI_T_category_get_pvars(c, np, ids));
        for (int k = 0; k < np; k++)
            MT_CHECK(ids[k] >= 0 && ids[k] < n, "pvar index %d", ids[k]);
        total += np;
    }
    MT_CHECK(total == n, "categories hold %d of %d pvars", total, n);
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MT_CHECK_RC(MPI_T_pvar_session_create(&ses));
    check_ring(MPI_COMM_WORLD);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    check_ring(half);
    MPI_Comm_free(&half);
    check_totals();
    check_level();
    check_unexpected_and_timer();
    check_coll();
    check_rma();
    check_misuse();
    MT_CHECK_RC(MPI_T_pvar_session_free(&ses));
    MT_CHECK_RC(MPI_T_finalize());
    return mt_finish();
}
