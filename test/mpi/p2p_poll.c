/*
 * Programs that poll: every call a program can spin on (MPI_Test,
 * Testany over persistent receives, Testall, Testsome,
 * MPI_Request_get_status and its _any/_all/_some forms, MPI_Iprobe,
 * MPI_Improbe, MPI_Ibarrier + MPI_Test, MPI_Win_test, MPI_Win_sync on a
 * shared window, MPI_Parrived) driven from the program's own loop, as a
 * graph code does.  Run with more ranks than cores, these calls give the
 * core away when they find nothing (lib/p2p/progress_poll.h): this checks
 * that every message still arrives, once, intact and with its status.
 */
#include "mpitest.h"

#include <string.h>

#define ROUNDS 40

static int rank, np;

static int payload(int src, int round, int k)
{
    return src * 1000003 + round * 131 + k;
}

/* Persistent receives from both ring neighbours, polled with
 * MPI_Testany; the sends completed with MPI_Test. */
static void testany_persistent(void)
{
    int nb[2] = {(rank + np - 1) % np, (rank + 1) % np};
    int in[2], out[2];
    MPI_Request rr[2], sr[2];

    for (int d = 0; d < 2; d++)
        MPI_Recv_init(&in[d], 1, MPI_INT, nb[d], 7, MPI_COMM_WORLD, &rr[d]);
    for (int it = 0; it < ROUNDS; it++) {
        int got = 0, sent = 0, seen[2] = {0, 0};
        MT_CHECK_RC(MPI_Startall(2, rr));
        for (int d = 0; d < 2; d++) {
            out[d] = payload(rank, it, d);
            MPI_Isend(&out[d], 1, MPI_INT, nb[1 - d], 7, MPI_COMM_WORLD, &sr[d]);
        }
        while (got < 2 || sent < 2) {
            int idx, flag;
            MPI_Status st;
            MT_CHECK_RC(MPI_Testany(2, rr, &idx, &flag, &st));
            if (flag && idx != MPI_UNDEFINED) {
                MT_CHECK(st.MPI_SOURCE == nb[idx] && st.MPI_TAG == 7,
                         "source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
                /* nb[0] sent its out[0] to its right: us; nb[1] its out[1] */
                MT_CHECK(in[idx] == payload(nb[idx], it, idx),
                         "round %d from %d: %d", it, nb[idx], in[idx]);
                seen[idx]++;
                got++;
            }
            for (int d = 0; d < 2; d++) {
                if (sr[d] == MPI_REQUEST_NULL)
                    continue;
                MT_CHECK_RC(MPI_Test(&sr[d], &flag, MPI_STATUS_IGNORE));
                sent += flag;
            }
        }
        MT_CHECK(seen[0] == 1 && seen[1] == 1, "seen %d %d", seen[0], seen[1]);
    }
    /* all inactive: Testany says so */
    int idx, flag;
    MT_CHECK_RC(MPI_Testany(2, rr, &idx, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(flag && idx == MPI_UNDEFINED, "flag %d idx %d", flag, idx);
    for (int d = 0; d < 2; d++)
        MPI_Request_free(&rr[d]);
}

/* An all-to-all exchange polled with MPI_Testsome, then with Testall. */
static void testsome_testall(void)
{
    int *in = calloc((size_t)np, sizeof(int)), *out = malloc(sizeof(int) * (size_t)np);
    MPI_Request *r = malloc(sizeof(*r) * 2 * (size_t)np);
    int *idx = malloc(sizeof(int) * 2 * (size_t)np);
    MPI_Status *st = malloc(sizeof(*st) * 2 * (size_t)np);

    for (int it = 0; it < ROUNDS / 4; it++) {
        for (int p = 0; p < np; p++) {
            MPI_Irecv(&in[p], 1, MPI_INT, p, 8, MPI_COMM_WORLD, &r[p]);
            out[p] = payload(rank, it, p);
            MPI_Isend(&out[p], 1, MPI_INT, p, 8, MPI_COMM_WORLD, &r[np + p]);
        }
        int left = 2 * np, outc;
        while (left > 0) {
            MT_CHECK_RC(MPI_Testsome(2 * np, r, &outc, idx, st));
            MT_CHECK(outc != MPI_UNDEFINED, "undefined with %d left", left);
            if (outc == MPI_UNDEFINED)
                break;
            for (int k = 0; k < outc; k++)
                if (idx[k] < np)
                    MT_CHECK(st[k].MPI_SOURCE == idx[k], "source %d for %d",
                             st[k].MPI_SOURCE, idx[k]);
            left -= outc;
        }
        for (int p = 0; p < np; p++)
            MT_CHECK(in[p] == payload(p, it, rank), "from %d: %d", p, in[p]);
        /* the same with MPI_Testall */
        for (int p = 0; p < np; p++) {
            MPI_Irecv(&in[p], 1, MPI_INT, p, 9, MPI_COMM_WORLD, &r[p]);
            MPI_Isend(&out[p], 1, MPI_INT, p, 9, MPI_COMM_WORLD, &r[np + p]);
        }
        for (int flag = 0; !flag;)
            MT_CHECK_RC(MPI_Testall(2 * np, r, &flag, st));
        for (int p = 0; p < np; p++)
            MT_CHECK(in[p] == payload(p, it, rank) && st[p].MPI_SOURCE == p,
                     "from %d: %d (source %d)", p, in[p], st[p].MPI_SOURCE);
    }
    free(st);
    free(idx);
    free(r);
    free(out);
    free(in);
}

/* Status queries leave the requests alone: poll with them, then free. */
static void get_status(void)
{
    int left = (rank + np - 1) % np, right = (rank + 1) % np;
    int in[2], out = payload(rank, 0, 3), flag, index, outc, ids[2];
    MPI_Request r[2];
    MPI_Status st[2];

    for (int form = 0; form < 4; form++) {
        in[0] = in[1] = -1;
        MPI_Irecv(&in[0], 1, MPI_INT, left, 10 + form, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&in[1], 1, MPI_INT, right, 20 + form, MPI_COMM_WORLD, &r[1]);
        MPI_Send(&out, 1, MPI_INT, right, 10 + form, MPI_COMM_WORLD);
        MPI_Send(&out, 1, MPI_INT, left, 20 + form, MPI_COMM_WORLD);
        switch (form) {
        case 0:
            for (int d = 0; d < 2; d++)
                for (flag = 0; !flag;)
                    MT_CHECK_RC(MPI_Request_get_status(r[d], &flag, &st[d]));
            MT_CHECK(st[0].MPI_SOURCE == left && st[1].MPI_SOURCE == right,
                     "sources %d %d", st[0].MPI_SOURCE, st[1].MPI_SOURCE);
            break;
        case 1:
            for (flag = 0; !flag;)
                MT_CHECK_RC(MPI_Request_get_status_all(2, r, &flag, st));
            break;
        case 2:
            for (int n = 0; n < 2; n += flag) {
                MT_CHECK_RC(MPI_Request_get_status_any(2, r, &index, &flag,
                                                       &st[0]));
                if (flag) {            /* stays active: wait to retire it */
                    MT_CHECK(r[index] != MPI_REQUEST_NULL, "freed");
                    MPI_Wait(&r[index], &st[index]);
                }
            }
            break;
        default:
            for (int n = 0; n < 2; n += outc) {
                MT_CHECK_RC(MPI_Request_get_status_some(2, r, &outc, ids, st));
                for (int k = 0; k < outc; k++)
                    MPI_Wait(&r[ids[k]], MPI_STATUS_IGNORE);
            }
            break;
        }
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        MT_CHECK(in[0] == payload(left, 0, 3) && in[1] == payload(right, 0, 3),
                 "form %d: %d %d", form, in[0], in[1]);
    }
}

/* Messages of unknown source: MPI_Iprobe(ANY_SOURCE) + Recv, then
 * MPI_Improbe + Mrecv. */
static void probes(void)
{
    for (int form = 0; form < 2; form++) {
        int tag = 30 + form, out = payload(rank, form, 4);
        long sum = 0, want = 0;
        MPI_Request s[2];

        MPI_Isend(&out, 1, MPI_INT, (rank + 1) % np, tag, MPI_COMM_WORLD, &s[0]);
        MPI_Isend(&out, 1, MPI_INT, (rank + 2) % np, tag, MPI_COMM_WORLD, &s[1]);
        for (int got = 0; got < 2;) {
            int flag, v = -1;
            MPI_Status st;
            if (form == 0) {
                MT_CHECK_RC(MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD,
                                       &flag, &st));
                if (flag)
                    MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, tag,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Message m;
                MT_CHECK_RC(MPI_Improbe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD,
                                        &flag, &m, &st));
                if (flag)
                    MPI_Mrecv(&v, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
            }
            if (!flag)
                continue;
            MT_CHECK(v == payload(st.MPI_SOURCE, form, 4), "from %d: %d",
                     st.MPI_SOURCE, v);
            sum += st.MPI_SOURCE;
            got++;
        }
        want = (rank + np - 1) % np + (rank + np - 2) % np;
        MT_CHECK(sum == want, "sources sum %ld, want %ld", sum, want);
        MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
    }
}

/* NBX: Issend to pseudo-random targets, Iprobe + Recv, and an Ibarrier
 * polled with MPI_Test once the sends are matched. */
static void nbx(void)
{
    long cnt[2] = {0, 0};

    for (int it = 0; it < ROUNDS; it++) {
        int tg[2] = {(rank * 7 + it) % np, (rank * 3 + it * 5 + 1) % np};
        int n = tg[0] == tg[1] ? 1 : 2, out = payload(rank, it, 5), done = 0;
        int tag = 40 + (it & 1);
        MPI_Request s[2], bar = MPI_REQUEST_NULL;
        MPI_Status sst[2];

        for (int k = 0; k < n; k++)
            MPI_Issend(&out, 1, MPI_INT, tg[k], tag, MPI_COMM_WORLD, &s[k]);
        cnt[0] += n;
        while (!done) {
            int flag, v;
            MPI_Status st;
            MT_CHECK_RC(MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st));
            if (flag) {
                MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, tag, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                MT_CHECK(v == payload(st.MPI_SOURCE, it, 5), "round %d: %d", it, v);
                cnt[1]++;
            }
            if (bar == MPI_REQUEST_NULL) {
                MT_CHECK_RC(MPI_Testall(n, s, &flag, sst));
                if (flag)
                    MPI_Ibarrier(MPI_COMM_WORLD, &bar);
            } else {
                MT_CHECK_RC(MPI_Test(&bar, &done, MPI_STATUS_IGNORE));
            }
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, cnt, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(cnt[0] == cnt[1], "sent %ld, received %ld", cnt[0], cnt[1]);
}

/* PSCW: the target polls MPI_Win_test until its left neighbour's put is
 * done. */
static void win_test(void)
{
    int *base, left = (rank + np - 1) % np, right = (rank + 1) % np;
    MPI_Win win;
    MPI_Group world, lg, rg;

    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &base, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &lg);
    MPI_Group_incl(world, 1, &right, &rg);
    for (int it = 0; it < ROUNDS / 4; it++) {
        int v = payload(rank, it, 6), flag = 0;
        *base = -1;
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_post(lg, 0, win);
        MPI_Win_start(rg, 0, win);
        MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
        while (!flag)
            MT_CHECK_RC(MPI_Win_test(win, &flag));
        MT_CHECK(*base == payload(left, it, 6), "round %d: %d", it, *base);
    }
    MPI_Group_free(&rg);
    MPI_Group_free(&lg);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
}

/* A token passed around the ring through a shared window: each rank
 * spins on MPI_Win_sync until its slot holds the token. */
static void win_sync_spin(void)
{
    MPI_Comm node;
    int nrank, nsize, *mine, *next;
    MPI_Aint sz;
    int du;
    MPI_Win win;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                        &node);
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node,
                            &mine, &win);
    MPI_Win_shared_query(win, (nrank + 1) % nsize, &sz, &du, &next);
    __atomic_store_n(mine, -1, __ATOMIC_RELAXED);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    MPI_Win_sync(win);
    MPI_Barrier(node);
    for (int it = 0; it < ROUNDS; it++) {
        if (nrank == 0)
            __atomic_store_n(next, it, __ATOMIC_RELEASE);
        while (__atomic_load_n(mine, __ATOMIC_ACQUIRE) != it)
            MT_CHECK_RC(MPI_Win_sync(win));
        if (nrank != 0)
            __atomic_store_n(next, it, __ATOMIC_RELEASE);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

/* Partitioned: the receiver polls MPI_Parrived on every partition. */
static void parrived(void)
{
    enum { PARTS = 4 };
    int left = (rank + np - 1) % np, right = (rank + 1) % np;
    int out[PARTS], in[PARTS];
    MPI_Request s, r;

    MPI_Psend_init(out, PARTS, 1, MPI_INT, right, 50, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &s);
    MPI_Precv_init(in, PARTS, 1, MPI_INT, left, 50, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &r);
    for (int it = 0; it < ROUNDS / 4; it++) {
        MPI_Start(&r);
        MPI_Start(&s);
        for (int p = 0; p < PARTS; p++) {
            out[p] = payload(rank, it, p);
            MPI_Pready(p, s);
        }
        for (int p = 0; p < PARTS; p++) {
            int flag = 0;
            while (!flag)
                MT_CHECK_RC(MPI_Parrived(r, p, &flag));
            MT_CHECK(in[p] == payload(left, it, p), "partition %d: %d", p, in[p]);
        }
        MPI_Wait(&s, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    testany_persistent();
    testsome_testall();
    get_status();
    probes();
    nbx();
    win_test();
    win_sync_spin();
    parrived();
    return mt_finish();
}
