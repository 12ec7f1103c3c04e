/* Many nonblocking gather/scatter/allgather/alltoall(v) in flight at
 * once on two communicators, completed in reverse order and by
 * MPI_Testany polling; persistent requests restarted with MPI_Startall. */
#include "coll_xfer.h"

#define NOPS 24
#define CNT 37

static int rank, size;

typedef struct {
    int kind, root, g;
    int *sb, *rb;
    MPI_Comm comm;
} op_t;

static int post(op_t *o, MPI_Request *req, int *counts, int *displs)
{
    int n = CNT;
    switch (o->kind) {
    case 0:
        return MPI_Igather(o->sb, n, MPI_INT, o->rb, n, MPI_INT, o->root,
                           o->comm, req);
    case 1:
        return MPI_Iscatter(o->sb, n, MPI_INT, o->rb, n, MPI_INT, o->root,
                            o->comm, req);
    case 2:
        return MPI_Iallgather(o->sb, n, MPI_INT, o->rb, n, MPI_INT, o->comm,
                              req);
    case 3:
        return MPI_Ialltoall(o->sb, n, MPI_INT, o->rb, n, MPI_INT, o->comm,
                             req);
    default:
        return MPI_Ialltoallv(o->sb, counts, displs, MPI_INT, o->rb, counts,
                              displs, MPI_INT, o->comm, req);
    }
}

static void fill(op_t *o)
{
    for (int d = 0; d < size; d++)
        for (int i = 0; i < CNT; i++) {
            int dst = o->kind == 2 || o->kind == 0 ? o->root : d;
            int src = o->kind == 1 ? o->root : rank;
            /* gather/allgather send one block; scatter's root sends all */
            o->sb[d * CNT + i] = o->kind == 1 ? xv(src, d, i, o->g)
                                              : xv(src, dst, i, o->g);
        }
    for (int i = 0; i < CNT * size; i++)
        o->rb[i] = -1;
}

static void check(op_t *o)
{
    char what[64];
    snprintf(what, sizeof(what), "overlap op kind %d g %d", o->kind, o->g);
    switch (o->kind) {
    case 0:
        if (rank == o->root)
            for (int s = 0; s < size; s++)
                XCHECK_BLOCK(o->rb + s * CNT, CNT, 1, s, o->root, o->g, what);
        break;
    case 1:
        XCHECK_BLOCK(o->rb, CNT, 1, o->root, rank, o->g, what);
        break;
    case 2:
        for (int s = 0; s < size; s++)
            XCHECK_BLOCK(o->rb + s * CNT, CNT, 1, s, 0, o->g, what);
        break;
    default:
        for (int s = 0; s < size; s++)
            XCHECK_BLOCK(o->rb + s * CNT, CNT, 1, s, rank, o->g, what);
    }
}

int main(int argc, char **argv)
{
    op_t ops[NOPS];
    MPI_Request reqs[NOPS];
    MPI_Comm dup;
    int counts[64], displs[64];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64)
        return mt_finish();
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int i = 0; i < size; i++) {
        counts[i] = CNT;
        displs[i] = i * CNT;
    }
    for (int i = 0; i < NOPS; i++) {
        ops[i] = (op_t){.kind = i % 5, .root = (i * 7) % size, .g = i,
                        .sb = xalloc(sizeof(int) * CNT * size),
                        .rb = xalloc(sizeof(int) * CNT * size),
                        .comm = i % 3 ? MPI_COMM_WORLD : dup};
        /* the allgather send data is xv(rank, root, ...): use root 0 */
        if (ops[i].kind == 2)
            ops[i].root = 0;
    }
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NOPS; i++) {
            ops[i].g = i + round * NOPS;
            fill(&ops[i]);
            MT_CHECK_RC(post(&ops[i], &reqs[i], counts, displs));
        }
        if (round == 0)
            for (int i = NOPS - 1; i >= 0; i--)
                MT_CHECK_RC(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
        else if (round == 1)
            for (int done = 0; done < NOPS;) {
                int idx, flag;
                MT_CHECK_RC(MPI_Testany(NOPS, reqs, &idx, &flag,
                                        MPI_STATUS_IGNORE));
                done += flag && idx != MPI_UNDEFINED;
            }
        else
            MT_CHECK_RC(MPI_Waitall(NOPS, reqs, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NOPS; i++)
            check(&ops[i]);
    }
    /* persistent: all five kinds, restarted together 20 times */
    for (int i = 0; i < 5; i++) {
        ops[i].g = 0;
        fill(&ops[i]);
    }
    MT_CHECK_RC(MPI_Gather_init(ops[0].sb, CNT, MPI_INT, ops[0].rb, CNT,
                                MPI_INT, ops[0].root, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &reqs[0]));
    MT_CHECK_RC(MPI_Scatter_init(ops[1].sb, CNT, MPI_INT, ops[1].rb, CNT,
                                 MPI_INT, ops[1].root, dup, MPI_INFO_NULL,
                                 &reqs[1]));
    MT_CHECK_RC(MPI_Allgather_init(ops[2].sb, CNT, MPI_INT, ops[2].rb, CNT,
                                   MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                                   &reqs[2]));
    MT_CHECK_RC(MPI_Alltoall_init(ops[3].sb, CNT, MPI_INT, ops[3].rb, CNT,
                                  MPI_INT, dup, MPI_INFO_NULL, &reqs[3]));
    MT_CHECK_RC(MPI_Alltoallv_init(ops[4].sb, counts, displs, MPI_INT,
                                   ops[4].rb, counts, displs, MPI_INT,
                                   MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[4]));
    for (int it = 0; it < 20; it++) {
        for (int i = 0; i < 5; i++) {
            ops[i].g = 1000 + it;
            fill(&ops[i]);
        }
        MT_CHECK_RC(MPI_Startall(5, reqs));
        MT_CHECK_RC(MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 5; i++)
            check(&ops[i]);
    }
    for (int i = 0; i < 5; i++)
        MT_CHECK_RC(MPI_Request_free(&reqs[i]));
    for (int i = 0; i < NOPS; i++)
        free(ops[i].sb), free(ops[i].rb);
    MPI_Comm_free(&dup);
    return mt_finish();
}
