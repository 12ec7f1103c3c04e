/*
 * Every RMA operation under every synchronisation mode (fence, PSCW,
 * lock, lock_all) on windows of each flavor (create, allocate, shared):
 * each rank puts, accumulates, fetches-and-adds and compare-and-swaps on
 * every rank, then reads everything back and checks it.
 */
#include "../mpitest.h"

#include <stdbool.h>
#include <string.h>

enum { FENCE, PSCW, LOCK, LOCK_ALL, NSYNC };
static const char *sync_name[] = {"fence", "pscw", "lock", "lock_all"};
enum { CREATE, ALLOCATE, SHARED, NFLAVOR };
static const char *flavor_name[] = {"create", "allocate", "shared"};

static int rank, size;
static MPI_Group world_group;

/* window layout in ints */
#define A 0                    /* [size] put by each origin */
#define B (A + size)           /* accumulate SUM */
#define C (B + 1)              /* fetch_and_op counter */
#define D (C + 1)              /* compare_and_swap winner */
#define E (D + 1)              /* [size] request-based puts */
#define F (E + size)           /* Raccumulate / Rget_accumulate */
#define G (F + 1)              /* accumulate MAX / REPLACE */
#define NINTS (G + 2)

static void begin(int mode, MPI_Win win, int target)
{
    switch (mode) {
    case FENCE: MPI_Win_fence(0, win); break;
    case PSCW:
        MPI_Win_post(world_group, 0, win);
        MPI_Win_start(world_group, 0, win);
        break;
    case LOCK: MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win); break;
    case LOCK_ALL: MPI_Win_lock_all(0, win); break;
    }
}

static void end(int mode, MPI_Win win, int target)
{
    switch (mode) {
    case FENCE: MPI_Win_fence(0, win); break;
    case PSCW:
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        break;
    case LOCK: MPI_Win_unlock(target, win); break;
    case LOCK_ALL: MPI_Win_unlock_all(win); break;
    }
}

static void run(int flavor, int mode)
{
    MPI_Win win;
    int *mem = NULL, *buf;
    MPI_Aint bytes = (MPI_Aint)sizeof(int) * NINTS;
    const char *what = sync_name[mode];

    if (flavor == CREATE) {
        buf = malloc(bytes);
        MT_CHECK_RC(MPI_Win_create(buf, bytes, sizeof(int), MPI_INFO_NULL,
                                   MPI_COMM_WORLD, &win));
        mem = buf;
    } else if (flavor == ALLOCATE) {
        MT_CHECK_RC(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL,
                                     MPI_COMM_WORLD, &mem, &win));
    } else {
        MT_CHECK_RC(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL,
                                            MPI_COMM_WORLD, &mem, &win));
    }
    for (int i = 0; i < NINTS; i++)
        mem[i] = -1;
    mem[B] = mem[C] = mem[F] = 0;
    mem[G] = -100;
    MPI_Barrier(MPI_COMM_WORLD);

    /* phase 1: write to every target */
    int fetched[64], cas_old[64], put_val[64], one = 1;
    if (mode == FENCE || mode == PSCW || mode == LOCK_ALL)
        begin(mode, win, 0);
    for (int t = 0; t < size; t++) {
        if (mode == LOCK)
            begin(mode, win, t);
        put_val[t] = 1000 * rank + t;
        MT_CHECK_RC(MPI_Put(&put_val[t], 1, MPI_INT, t, A + rank, 1, MPI_INT,
                            win));
        int add = rank + 1;
        MT_CHECK_RC(MPI_Accumulate(&add, 1, MPI_INT, t, B, 1, MPI_INT,
                                   MPI_SUM, win));
        MT_CHECK_RC(MPI_Fetch_and_op(&one, &fetched[t], MPI_INT, t, C,
                                     MPI_SUM, win));
        int minus = -1;
        MT_CHECK_RC(MPI_Compare_and_swap(&rank, &minus, &cas_old[t], MPI_INT,
                                         t, D, win));
        MT_CHECK_RC(MPI_Accumulate(&rank, 1, MPI_INT, t, G, 1, MPI_INT,
                                   MPI_MAX, win));
        if (mode == LOCK || mode == LOCK_ALL) {
            MPI_Request rq[3];
            int val = 7 * rank + t, radd = 2;
            int old_f = -5;
            MT_CHECK_RC(MPI_Rput(&val, 1, MPI_INT, t, E + rank, 1, MPI_INT,
                                 win, &rq[0]));
            MT_CHECK_RC(MPI_Raccumulate(&radd, 1, MPI_INT, t, F, 1, MPI_INT,
                                        MPI_SUM, win, &rq[1]));
            MT_CHECK_RC(MPI_Rget_accumulate(&radd, 1, MPI_INT, &old_f, 1,
                                            MPI_INT, t, F, 1, MPI_INT,
                                            MPI_SUM, win, &rq[2]));
            MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
            MT_CHECK(old_f >= 0 && old_f % 2 == 0 && old_f < 4 * size,
                     "%s: Rget_accumulate fetched %d", what, old_f);
            MT_CHECK_RC(MPI_Win_flush(t, win));
        }
        if (mode == LOCK)
            end(mode, win, t);
    }
    if (mode == FENCE || mode == PSCW || mode == LOCK_ALL)
        end(mode, win, 0);
    for (int t = 0; t < size; t++) {
        MT_CHECK(fetched[t] >= 0 && fetched[t] < size,
                 "%s: fetch_and_op from %d got %d", what, t, fetched[t]);
        MT_CHECK(cas_old[t] >= -1 && cas_old[t] < size,
                 "%s: compare_and_swap on %d got %d", what, t, cas_old[t]);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* phase 2: read back from every target */
    int *got = malloc(sizeof(int) * NINTS);
    int noop_val = -9;
    for (int k = 0; k < size; k++) {
        /* collective epochs: everyone reads its right neighbour once */
        bool coll = mode == FENCE || mode == PSCW;
        int t = coll ? (rank + 1) % size : k;
        begin(mode, win, t);
        memset(got, 0x55, sizeof(int) * NINTS);
        if (mode == LOCK || mode == LOCK_ALL) {
            MPI_Request rq;
            MT_CHECK_RC(MPI_Rget(got, NINTS, MPI_INT, t, 0, NINTS, MPI_INT,
                                 win, &rq));
            MT_CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        } else {
            MT_CHECK_RC(MPI_Get(got, NINTS, MPI_INT, t, 0, NINTS, MPI_INT,
                                win));
        }
        MT_CHECK_RC(MPI_Get_accumulate(NULL, 0, MPI_INT, &noop_val, 1,
                                       MPI_INT, t, B, 1, MPI_INT, MPI_NO_OP,
                                       win));
        end(mode, win, t);
        for (int o = 0; o < size; o++)
            MT_CHECK(got[A + o] == 1000 * o + t, "%s: put %d->%d: %d", what,
                     o, t, got[A + o]);
        MT_CHECK(got[B] == size * (size + 1) / 2, "%s: sum on %d: %d", what,
                 t, got[B]);
        MT_CHECK(noop_val == got[B], "%s: NO_OP fetch %d", what, noop_val);
        MT_CHECK(got[C] == size, "%s: counter on %d: %d", what, t, got[C]);
        MT_CHECK(got[D] >= 0 && got[D] < size, "%s: cas winner %d", what,
                 got[D]);
        if (cas_old[t] == -1)
            MT_CHECK(got[D] == rank, "%s: I won cas on %d but see %d", what,
                     t, got[D]);
        MT_CHECK(got[G] == size - 1, "%s: max on %d: %d", what, t, got[G]);
        if (mode == LOCK || mode == LOCK_ALL) {
            for (int o = 0; o < size; o++)
                MT_CHECK(got[E + o] == 7 * o + t, "%s: rput %d->%d: %d", what,
                         o, t, got[E + o]);
            MT_CHECK(got[F] == 4 * size, "%s: racc on %d: %d", what, t,
                     got[F]);
        }
        if (coll)
            break;
    }
    free(got);
    if (mode == FENCE)
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MT_CHECK_RC(MPI_Win_free(&win));
    MT_CHECK(win == MPI_WIN_NULL, "Win_free did not reset the handle");
    if (flavor == CREATE)
        free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* the window's group is the world group */
    MPI_Win w0;
    int dummy;
    MPI_Win_create(&dummy, sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                   &w0);
    MPI_Win_get_group(w0, &world_group);
    MPI_Win_free(&w0);
    /* shared windows need every rank on one node (not so across nodes) */
    MPI_Comm node;
    int node_size;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                        &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_free(&node);
    for (int f = 0; f < NFLAVOR; f++)
        for (int m = 0; m < NSYNC && (f != SHARED || node_size == size); m++) {
            int before = mt_errors;
            run(f, m);
            if (mt_errors != before)
                fprintf(stderr, "[rank %d] failures in %s/%s\n", rank,
                        flavor_name[f], sync_name[m]);
        }
    return mt_finish();
}
