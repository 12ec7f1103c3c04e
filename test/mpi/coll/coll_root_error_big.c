/*
 * A rooted collective whose root alone finds an argument error
 * (MPI_ERRORS_RETURN) while the others' blocks are big (1 MiB: past UCX's
 * rendezvous threshold, so a send completes only once it is received).
 * Gather(v) and reduce: the root gets the error class, every other rank
 * returns success (the erring root still drains their blocks); before the
 * fix their sends never completed and they hung.  Scatter(v): the others
 * get their data when only the root's receive side is bad, and an error
 * (not a hang, not silently missing data) when the root cannot send them
 * anything.  After each case, correct collectives on the same
 * communicator check their results.  Run with each algorithm forced.
 */
#include "../mpitest.h"

#include <string.h>

enum { B = 1 << 18 };   /* ints per block: 1 MiB */

static int rank, size;
static int *sbuf, *rbuf, *counts, *displs;

enum {
    C_GATHER_INPLACE,    /* root's recvbuf is MPI_IN_PLACE */
    C_GATHER_NEGCOUNT,   /* root's recvcount is negative */
    C_GATHERV_NEGCOUNT,  /* one of the root's recvcounts is negative */
    C_GATHERV_NULLTYPE,  /* root's recvtype is MPI_DATATYPE_NULL */
    C_REDUCE_INPLACE,    /* root's recvbuf is MPI_IN_PLACE */
    C_REDUCE_ALIAS,      /* root's sendbuf and recvbuf overlap */
    C_SCATTER_ALIAS,     /* root's sendbuf and recvbuf overlap: others
                          * still get their blocks */
    C_SCATTER_NULLTYPE,  /* root's sendtype is null: others get an error */
    C_SCATTERV_NEGCOUNT, /* one of the root's sendcounts is negative: that
                          * rank gets an error, the others their blocks */
    NCASES
};

/* Runs case c (nonblocking when nb) with this root; returns the class
 * this rank must get (-1: any error). */
static int run_case(int c, int nb, int root, int *rc)
{
    int me_root = rank == root, bad = (root + 1) % size;
    MPI_Request req = MPI_REQUEST_NULL;
    int expect = MPI_SUCCESS, *out = rbuf;

    for (int i = 0; i < B; i++)
        sbuf[i] = rank * 7 + i % 1000;
    for (int i = 0; i < size; i++) {
        counts[i] = B;
        displs[i] = i * B;
    }
    switch (c) {
    case C_GATHER_INPLACE:
    case C_GATHER_NEGCOUNT:
        if (me_root)
            expect = c == C_GATHER_INPLACE ? MPI_ERR_BUFFER : MPI_ERR_COUNT;
        {
            void *rb = me_root && c == C_GATHER_INPLACE ? MPI_IN_PLACE : rbuf;
            int rc_ = me_root && c == C_GATHER_NEGCOUNT ? -1 : B;
            *rc = nb ? MPI_Igather(sbuf, B, MPI_INT, rb, rc_, MPI_INT, root,
                                   MPI_COMM_WORLD, &req)
                     : MPI_Gather(sbuf, B, MPI_INT, rb, rc_, MPI_INT, root,
                                  MPI_COMM_WORLD);
        }
        break;
    case C_GATHERV_NEGCOUNT:
    case C_GATHERV_NULLTYPE:
        if (me_root && c == C_GATHERV_NEGCOUNT)
            counts[bad] = -1;
        if (me_root)
            expect = c == C_GATHERV_NEGCOUNT ? MPI_ERR_COUNT : MPI_ERR_TYPE;
        {
            MPI_Datatype rt = me_root && c == C_GATHERV_NULLTYPE
                                  ? MPI_DATATYPE_NULL : MPI_INT;
            *rc = nb ? MPI_Igatherv(sbuf, B, MPI_INT, rbuf, counts, displs,
                                    rt, root, MPI_COMM_WORLD, &req)
                     : MPI_Gatherv(sbuf, B, MPI_INT, rbuf, counts, displs, rt,
                                   root, MPI_COMM_WORLD);
        }
        break;
    case C_REDUCE_INPLACE:
    case C_REDUCE_ALIAS:
        if (me_root)
            expect = MPI_ERR_BUFFER;
        {
            void *rb = !me_root ? rbuf
                       : c == C_REDUCE_INPLACE ? MPI_IN_PLACE : sbuf + 8;
            *rc = nb ? MPI_Ireduce(sbuf, rb, B, MPI_INT, MPI_SUM, root,
                                   MPI_COMM_WORLD, &req)
                     : MPI_Reduce(sbuf, rb, B, MPI_INT, MPI_SUM, root,
                                  MPI_COMM_WORLD);
        }
        break;
    case C_SCATTER_ALIAS:
    case C_SCATTER_NULLTYPE:
        if (me_root)
            expect = c == C_SCATTER_ALIAS ? MPI_ERR_BUFFER : MPI_ERR_TYPE;
        else if (c == C_SCATTER_NULLTYPE)
            expect = -1;
        for (int i = 0; me_root && i < size * B; i++)
            rbuf[i] = 1000 + i;
        {
            MPI_Datatype st = me_root && c == C_SCATTER_NULLTYPE
                                  ? MPI_DATATYPE_NULL : MPI_INT;
            out = me_root ? rbuf + 8 : sbuf;   /* overlaps at the root */
            *rc = nb ? MPI_Iscatter(rbuf, B, st, out, B, MPI_INT, root,
                                    MPI_COMM_WORLD, &req)
                     : MPI_Scatter(rbuf, B, st, out, B, MPI_INT, root,
                                   MPI_COMM_WORLD);
        }
        break;
    default:   /* C_SCATTERV_NEGCOUNT */
        if (me_root) {
            counts[bad] = -1;
            expect = MPI_ERR_COUNT;
        } else if (rank == bad) {
            expect = -1;
        }
        for (int i = 0; me_root && i < size * B; i++)
            rbuf[i] = 1000 + i;
        out = sbuf;
        *rc = nb ? MPI_Iscatterv(rbuf, counts, displs, MPI_INT, sbuf, B,
                                 MPI_INT, root, MPI_COMM_WORLD, &req)
                 : MPI_Scatterv(rbuf, counts, displs, MPI_INT, sbuf, B,
                                MPI_INT, root, MPI_COMM_WORLD);
        break;
    }
    if (!me_root && *rc == MPI_SUCCESS && nb)
        *rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* the others' blocks of a scatter whose root could send them */
    if (!me_root && expect == MPI_SUCCESS &&
        (c == C_SCATTER_ALIAS || c == C_SCATTERV_NEGCOUNT))
        for (int i = 0; i < B; i++)
            if (out[i] != 1000 + rank * B + i) {
                MT_CHECK(0, "case %d nb %d: got[%d]=%d", c, nb, i, out[i]);
                break;
            }
    return expect;
}

/* Correct collectives on the same communicator, results checked. */
static void run_good(int c, int root)
{
    int v[4], r[4], i;

    for (i = 0; i < B; i++)   /* a scatter case received into it */
        sbuf[i] = rank * 7 + i % 1000;
    for (i = 0; i < 4; i++)
        v[i] = rank + i + c;
    MT_CHECK_RC(MPI_Allreduce(v, r, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (i = 0; i < 4; i++)
        MT_CHECK(r[i] == size * (size - 1) / 2 + size * (i + c),
                 "case %d allreduce[%d]=%d", c, i, r[i]);
    MT_CHECK_RC(MPI_Reduce(sbuf, rbuf, B, MPI_INT, MPI_SUM, root,
                           MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Gather(sbuf, B, MPI_INT, rbuf, B, MPI_INT, root,
                           MPI_COMM_WORLD));
    for (i = 0; rank == root && i < size * B; i += 4099)
        MT_CHECK(rbuf[i] == (i / B) * 7 + (i % B) % 1000,
                 "case %d gather[%d]=%d", c, i, rbuf[i]);
    for (i = 0; i < 4; i++)
        r[i] = rank == root ? 7 * i + c : -1;
    MT_CHECK_RC(MPI_Bcast(r, 4, MPI_INT, root, MPI_COMM_WORLD));
    for (i = 0; i < 4; i++)
        MT_CHECK(r[i] == 7 * i + c, "case %d bcast[%d]=%d", c, i, r[i]);
    MT_CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    sbuf = malloc(sizeof(int) * (B + 16));
    rbuf = malloc(sizeof(int) * ((size_t)size * B + 16));
    counts = malloc(sizeof(int) * (size_t)size);
    displs = malloc(sizeof(int) * (size_t)size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int c = 0; c < NCASES; c++)
        for (int nb = 0; nb < 2; nb++) {
            int root = (c + nb) % size, rc = MPI_SUCCESS, cls = MPI_SUCCESS;
            int expect;

            if (size == 1 && (c == C_GATHERV_NEGCOUNT ||
                              c == C_SCATTERV_NEGCOUNT))
                continue;   /* the bad count would be the root's own */
            expect = run_case(c, nb, root, &rc);
            MPI_Error_class(rc, &cls);
            if (expect < 0)
                MT_CHECK(cls != MPI_SUCCESS, "case %d nb %d: rank %d got "
                         "success without its data", c, nb, rank);
            else
                MT_CHECK(cls == expect, "case %d nb %d: class %d, want %d",
                         c, nb, cls, expect);
            run_good(c, root);
        }
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
    return mt_finish();
}
