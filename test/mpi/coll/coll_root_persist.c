/*
 * Persistent rooted collectives (and intercommunicator reduce,
 * and a gather root with MPI_IN_PLACE and a bad count) whose root alone
 * finds an argument error (MPI_ERRORS_RETURN), with blocks big enough
 * (1 MiB) for UCX's rendezvous: a send completes only once received.
 * The erring root's *_init reports the error class and still hands back a
 * request; every rank starts and waits on its request NSTART times.  The
 * others must not hang: gather(v)/reduce senders return success, scatter
 * receivers get their data when the root's send side is fine and an error
 * when it is not; the root's every wait reports its error again.  After
 * each case, correct collectives on the same communicator check their
 * results.  Before the fix the erring root got no request (its init only
 * took a tag) and the others' waits hung; the blocking intercomm reduce
 * and in-place gather cases hung too.
 */
#include "../mpitest.h"

#include <stdlib.h>
#include <string.h>

enum { B = 1 << 18, NSTART = 3 };

static int rank, size;
static int *sbuf, *rbuf, *counts, *displs;
static int out_base;      /* the block received holds out_base + 1000 + i */

enum {
    C_GATHER_INPLACE,     /* root's recvbuf is MPI_IN_PLACE */
    C_GATHER_IP_NEGCOUNT, /* root's sendbuf is MPI_IN_PLACE, recvcount < 0 */
    C_GATHERV_NEGCOUNT,   /* one of the root's recvcounts is negative */
    C_REDUCE_INPLACE,     /* root's recvbuf is MPI_IN_PLACE */
    C_SCATTER_ALIAS,      /* root's buffers overlap: others get blocks */
    C_SCATTER_NULLTYPE,   /* root's sendtype is null: others get an error */
    C_SCATTERV_NEGCOUNT,  /* a negative sendcount: that rank gets an error */
    C_BCAST_ROOTNULL,     /* root's buffer is NULL: the others get an
                           * error (blocking on shm: zeros) */
    C_BCAST_RANKNULL,     /* another rank's buffer is NULL: the rest get
                           * the data through it */
    C_INTER_REDUCE,       /* intercomm reduce, MPI_ROOT's recvbuf in place */
    C_INTER_BCAST,        /* intercomm bcast, MPI_ROOT's buffer is NULL */
    NCASES
};

enum { ANY = -2 };        /* a class check that accepts anything */

/* The others' block size is unknown to an MPI_IN_PLACE root with a bad
 * count: it can drain them only where the algorithm does not depend on it
 * (below the tree's 5 ranks, or forced). */
static int gather_ip_negcount_ok(void)
{
    const char *f = getenv("UCMPI_GATHER_ALGORITHM");

    return size < 5 || (f != NULL && f[0] != '\0' && strcmp(f, "auto") != 0);
}

/* Calls case c on comm (persistent when p) with this root, into *req;
 * sets *exp to the class every wait must give (-1: any error) and *out to
 * the block this rank must receive (NULL: none).  Returns the class the
 * call itself must give; its result is in *rc. */
static int call_case(int c, int p, int root, MPI_Comm comm, MPI_Request *req,
                     int *rc, int *exp, int **out)
{
    int me_root = rank == root, bad = (root + 1) % size;

    *exp = MPI_SUCCESS;
    *out = NULL;
    out_base = rank * B;      /* scatter; bcast: 0 */
    for (int i = 0; i < size; i++) {
        counts[i] = B;
        displs[i] = i * B;
    }
    for (int i = 0; i < B; i++)
        sbuf[i] = rank * 7 + i % 1000;
    switch (c) {
    case C_GATHER_INPLACE:
        *exp = me_root ? MPI_ERR_BUFFER : MPI_SUCCESS;
        *rc = p ? MPI_Gather_init(sbuf, B, MPI_INT,
                                  me_root ? MPI_IN_PLACE : NULL, B, MPI_INT,
                                  root, comm, MPI_INFO_NULL, req)
                : MPI_Gather(sbuf, B, MPI_INT, me_root ? MPI_IN_PLACE : NULL,
                             B, MPI_INT, root, comm);
        return *exp;
    case C_GATHER_IP_NEGCOUNT:
        *exp = me_root ? MPI_ERR_COUNT : MPI_SUCCESS;
        *rc = p ? MPI_Gather_init(me_root ? MPI_IN_PLACE : sbuf, B, MPI_INT,
                                  rbuf, me_root ? -1 : B, MPI_INT, root, comm,
                                  MPI_INFO_NULL, req)
                : MPI_Gather(me_root ? MPI_IN_PLACE : sbuf, B, MPI_INT, rbuf,
                             me_root ? -1 : B, MPI_INT, root, comm);
        return *exp;
    case C_GATHERV_NEGCOUNT:
        if (me_root)
            counts[bad] = -1;
        *exp = me_root ? MPI_ERR_COUNT : MPI_SUCCESS;
        *rc = p ? MPI_Gatherv_init(sbuf, B, MPI_INT, rbuf, counts, displs,
                                   MPI_INT, root, comm, MPI_INFO_NULL, req)
                : MPI_Gatherv(sbuf, B, MPI_INT, rbuf, counts, displs, MPI_INT,
                              root, comm);
        return *exp;
    case C_REDUCE_INPLACE:
        *exp = me_root ? MPI_ERR_BUFFER : MPI_SUCCESS;
        *rc = p ? MPI_Reduce_init(sbuf, me_root ? MPI_IN_PLACE : rbuf, B,
                                  MPI_INT, MPI_SUM, root, comm, MPI_INFO_NULL,
                                  req)
                : MPI_Reduce(sbuf, me_root ? MPI_IN_PLACE : rbuf, B, MPI_INT,
                             MPI_SUM, root, comm);
        return *exp;
    case C_SCATTER_ALIAS:
    case C_SCATTER_NULLTYPE: {
        MPI_Datatype st = me_root && c == C_SCATTER_NULLTYPE
                              ? MPI_DATATYPE_NULL : MPI_INT;
        int *o = me_root ? rbuf + 8 : sbuf;   /* overlaps at the root */

        for (int i = 0; me_root && i < size * B; i++)
            rbuf[i] = 1000 + i;
        *exp = me_root ? (c == C_SCATTER_ALIAS ? MPI_ERR_BUFFER
                                               : MPI_ERR_TYPE)
                       : (c == C_SCATTER_ALIAS ? MPI_SUCCESS : -1);
        if (!me_root && c == C_SCATTER_ALIAS)
            *out = sbuf;
        *rc = p ? MPI_Scatter_init(rbuf, B, st, o, B, MPI_INT, root, comm,
                                   MPI_INFO_NULL, req)
                : MPI_Scatter(rbuf, B, st, o, B, MPI_INT, root, comm);
        return me_root || !p ? *exp : MPI_SUCCESS;
    }
    case C_SCATTERV_NEGCOUNT:
        for (int i = 0; me_root && i < size * B; i++)
            rbuf[i] = 1000 + i;
        if (me_root)
            counts[bad] = -1;
        *exp = me_root ? MPI_ERR_COUNT : rank == bad ? -1 : MPI_SUCCESS;
        if (!me_root && rank != bad)
            *out = sbuf;
        *rc = p ? MPI_Scatterv_init(rbuf, counts, displs, MPI_INT, sbuf, B,
                                    MPI_INT, root, comm, MPI_INFO_NULL, req)
                : MPI_Scatterv(rbuf, counts, displs, MPI_INT, sbuf, B,
                               MPI_INT, root, comm);
        return me_root || !p ? *exp : MPI_SUCCESS;
    case C_BCAST_ROOTNULL:
    case C_BCAST_RANKNULL: {
        int me_bad = c == C_BCAST_ROOTNULL ? me_root : rank == bad && !me_root;
        int *b = me_bad ? NULL : sbuf;

        for (int i = 0; i < B; i++)
            sbuf[i] = me_root ? 1000 + i : -1;
        out_base = 0;
        /* (blocking on shm the others of a root without data get zeros) */
        *exp = me_bad ? MPI_ERR_BUFFER
               : c == C_BCAST_RANKNULL ? MPI_SUCCESS : p ? -1 : ANY;
        if (c == C_BCAST_RANKNULL && !me_bad && !me_root)
            *out = sbuf;
        *rc = p ? MPI_Bcast_init(b, B, MPI_INT, root, comm, MPI_INFO_NULL,
                                 req)
                : MPI_Bcast(b, B, MPI_INT, root, comm);
        return me_bad || !p ? *exp : MPI_SUCCESS;
    }
    case C_INTER_BCAST:   /* comm is an intercomm, root the mode */
        *exp = root == MPI_ROOT ? MPI_ERR_BUFFER
               : root == MPI_PROC_NULL ? MPI_SUCCESS : -1;
        *rc = p ? MPI_Bcast_init(root == MPI_ROOT ? NULL : sbuf, B, MPI_INT,
                                 root, comm, MPI_INFO_NULL, req)
                : MPI_Bcast(root == MPI_ROOT ? NULL : sbuf, B, MPI_INT, root,
                            comm);
        return root == MPI_ROOT || !p ? *exp : MPI_SUCCESS;
    default:   /* C_INTER_REDUCE: comm is an intercomm, root the mode */
        *exp = root == MPI_ROOT ? MPI_ERR_BUFFER : MPI_SUCCESS;
        *rc = p ? MPI_Reduce_init(sbuf, root == MPI_ROOT ? MPI_IN_PLACE : rbuf,
                                  B, MPI_INT, MPI_SUM, root, comm,
                                  MPI_INFO_NULL, req)
                : MPI_Reduce(sbuf, root == MPI_ROOT ? MPI_IN_PLACE : rbuf, B,
                             MPI_INT, MPI_SUM, root, comm);
        return *exp;
    }
}

static void check_class(int rc, int want, const char *what, int c, int p)
{
    int cls = MPI_SUCCESS;

    MPI_Error_class(rc, &cls);
    if (want == ANY)
        return;
    if (want < 0)
        MT_CHECK(cls != MPI_SUCCESS, "case %d p %d %s: success without "
                 "data", c, p, what);
    else
        MT_CHECK(cls == want, "case %d p %d %s: class %d, want %d", c, p,
                 what, cls, want);
}

/* The block case c delivers to this rank (root sent 1000 + i). */
static void check_block(const int *out, int c, int p, int k)
{
    for (int i = 0; i < B; i++)
        if (out[i] != 1000 + out_base + i) {
            MT_CHECK(0, "case %d p %d start %d: got[%d]=%d", c, p, k, i,
                     out[i]);
            return;
        }
}

/* Case c, persistent when p: the call, then NSTART rounds of start and
 * wait on whatever request this rank holds. */
static void run_case(int c, int p, int root, MPI_Comm comm)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS, exp, *out;
    int want = call_case(c, p, root, comm, &req, &rc, &exp, &out);

    check_class(rc, want, p ? "init" : "call", c, p);
    if (!p) {
        if (out != NULL)
            check_block(out, c, p, 0);
        return;
    }
    MT_CHECK(req != MPI_REQUEST_NULL, "case %d: no request (rc %d)", c, rc);
    for (int k = 0; k < NSTART && req != MPI_REQUEST_NULL; k++) {
        if (out != NULL)
            memset(out, 0xff, sizeof(int) * B);
        MT_CHECK_RC(MPI_Start(&req));
        check_class(MPI_Wait(&req, MPI_STATUS_IGNORE), exp, "wait", c, p);
        if (out != NULL)
            check_block(out, c, p, k);
    }
    if (req != MPI_REQUEST_NULL)
        MT_CHECK_RC(MPI_Request_free(&req));
}

/* Correct collectives on the same communicator, results checked. */
static void run_good(int c, int root)
{
    int v[4], r[4], i;
    MPI_Request req;

    for (i = 0; i < B; i++)
        sbuf[i] = rank * 7 + i % 1000;
    for (i = 0; i < 4; i++)
        v[i] = rank + i + c;
    MT_CHECK_RC(MPI_Allreduce(v, r, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (i = 0; i < 4; i++)
        MT_CHECK(r[i] == size * (size - 1) / 2 + size * (i + c),
                 "case %d allreduce[%d]=%d", c, i, r[i]);
    MT_CHECK_RC(MPI_Gather_init(sbuf, B, MPI_INT, rbuf, B, MPI_INT, root,
                                MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    MT_CHECK_RC(MPI_Start(&req));
    MT_CHECK_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_Request_free(&req));
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

/* Intercomm reduce between the lower and upper halves, then a correct one
 * checked at the root. */
static void run_inter(int p)
{
    int lo = rank < size / 2, nlo = size / 2;
    MPI_Comm local, inter;
    int root;

    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, lo, rank, &local));
    MT_CHECK_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD,
                                     lo ? nlo : 0, 17, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    /* the lower half's rank 0 is the root */
    root = lo ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    run_case(C_INTER_REDUCE, p, root, inter);
    run_case(C_INTER_BCAST, p, root, inter);
    for (int i = 0; i < B; i++)
        sbuf[i] = rank + i % 1000;
    MT_CHECK_RC(MPI_Reduce(sbuf, rbuf, B, MPI_INT, MPI_SUM, root, inter));
    if (root == MPI_ROOT) {
        int nhi = size - nlo, sum = nhi * (nlo + size - 1) / 2;

        for (int i = 0; i < B; i += 4099)
            MT_CHECK(rbuf[i] == sum + nhi * (i % 1000), "inter p %d "
                     "reduce[%d]=%d", p, i, rbuf[i]);
    }
    MT_CHECK_RC(MPI_Comm_free(&inter));
    MT_CHECK_RC(MPI_Comm_free(&local));
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
    for (int c = 0; c < C_INTER_REDUCE; c++)
        for (int p = 0; p < 2; p++) {
            int root = (c + p) % size;

            if ((size == 1 && (c == C_GATHERV_NEGCOUNT ||
                               c == C_SCATTERV_NEGCOUNT ||
                               c == C_BCAST_RANKNULL)) ||
                (c == C_GATHER_IP_NEGCOUNT && !gather_ip_negcount_ok()))
                continue;   /* the bad count would be the root's own */
            run_case(c, p, root, MPI_COMM_WORLD);
            run_good(c, root);
        }
    for (int p = 0; size > 1 && p < 2; p++)
        run_inter(p);
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
    return mt_finish();
}
