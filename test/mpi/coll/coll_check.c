/*
 * UCMPI_COLL_CHECK=1 (lib/coll/check/coll_check.h): collective calls whose
 * ranks disagree fail on EVERY rank, with the class the disagreement
 * calls for, and no data moved; the communicator stays usable (a
 * checked allreduce after each case).  Run with UCMPI_COLL_CHECK=1 only.
 * Each case runs blocking, nonblocking and persistent:
 *  - MPI_Reduce, root MPI_PROD, the others MPI_SUM: MPI_ERR_OP (MPICH's
 *    errors/coll/reduceop: the default mode lets the non-roots succeed);
 *  - MPI_Bcast where the last rank names itself root: MPI_ERR_ROOT;
 *  - rank 0 in MPI_Bcast, the others in MPI_Allreduce: MPI_ERR_OTHER;
 *  - MPI_Bcast of 4 MPI_INT at the root, 4 MPI_FLOAT elsewhere (same
 *    bytes): MPI_ERR_TYPE;
 *  - MPI_Gatherv where the last rank sends 3 ints and the root expects
 *    2, and MPI_Alltoallv where rank 0 sends rank 1 two ints and rank 1
 *    expects one: MPI_ERR_TRUNCATE;
 *  - MPI_Bcast from rank 1 against MPI_Gatherv to rank 0, whose tag
 *    signatures collide (on ranks 0 and 1): MPI_ERR_OTHER;
 *  - MPI_Gather whose root's receive count is too short for its own
 *    block as well (its local check fails too): MPI_ERR_TRUNCATE (or
 *    MPI_ERR_COUNT at the root), and no hang in the nonblocking form.
 * Correct programs that must pass: count 0 with other types, in-place
 * forms, non-root gather/scatter with garbage ignored arguments, a user
 * op, a derived type against its basic type, alltoallw, reduce_scatter;
 * and rank 0 `Ibcast; Send; Wait` against rank 1 `Recv; Ibcast; Wait`,
 * which a blocking check would deadlock.
 * At 1 rank only the correct programs run (nothing can disagree).
 */
#include "coll_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, errors;
static MPI_Comm comm;

/* form 0 blocking, 1 nonblocking, 2 persistent: the call's result.  A
 * persistent init that failed on this rank may still hand back a request
 * whose starts serve the others (lib/coll/coll_util.h): it is started. */
static int finish(int rc, MPI_Request *q, int form)
{
    int rc2;

    if (form == 2 && *q != MPI_REQUEST_NULL) {
        rc2 = MPI_Start(q);
        if (rc2 == MPI_SUCCESS)
            rc2 = MPI_Wait(q, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = rc2;
        MPI_Request_free(q);
    } else if (form == 1 && rc == MPI_SUCCESS) {
        rc = MPI_Wait(q, MPI_STATUS_IGNORE);
    }
    return rc;
}

static const char *const form_name[] = {"blocking", "nonblocking",
                                        "persistent"};

/* every rank's call failed with class want, and the comm still works */
static void expect(int rc, int want, const char *what, int form)
{
    int cls = MPI_SUCCESS, sum = 0, r = rank + 1;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls != want)
        FAIL("%s (%s): class %d, expected %d", what, form_name[form], cls,
             want);
    rc = MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, comm);
    if (rc != MPI_SUCCESS || sum != size * (size + 1) / 2)
        FAIL("%s (%s): allreduce after it: rc %d sum %d", what,
             form_name[form], rc, sum);
}

static int reduce(int form, const void *s, void *r, int n, MPI_Datatype dt,
                  MPI_Op op, int root, MPI_Request *q)
{
    return form == 0   ? MPI_Reduce(s, r, n, dt, op, root, comm)
           : form == 1 ? MPI_Ireduce(s, r, n, dt, op, root, comm, q)
                       : MPI_Reduce_init(s, r, n, dt, op, root, comm,
                                         MPI_INFO_NULL, q);
}

static int bcast(int form, void *b, int n, MPI_Datatype dt, int root,
                 MPI_Request *q)
{
    return form == 0   ? MPI_Bcast(b, n, dt, root, comm)
           : form == 1 ? MPI_Ibcast(b, n, dt, root, comm, q)
                       : MPI_Bcast_init(b, n, dt, root, comm, MPI_INFO_NULL,
                                        q);
}

static int allreduce(int form, const void *s, void *r, int n, MPI_Op op,
                     MPI_Request *q)
{
    return form == 0   ? MPI_Allreduce(s, r, n, MPI_INT, op, comm)
           : form == 1 ? MPI_Iallreduce(s, r, n, MPI_INT, op, comm, q)
                       : MPI_Allreduce_init(s, r, n, MPI_INT, op, comm,
                                            MPI_INFO_NULL, q);
}

static int gatherv(int form, const int *s, int n, int *r, const int *rc,
                   const int *dis, MPI_Request *q)
{
    return form == 0 ? MPI_Gatherv(s, n, MPI_INT, r, rc, dis, MPI_INT, 0, comm)
           : form == 1
               ? MPI_Igatherv(s, n, MPI_INT, r, rc, dis, MPI_INT, 0, comm, q)
               : MPI_Gatherv_init(s, n, MPI_INT, r, rc, dis, MPI_INT, 0,
                                  comm, MPI_INFO_NULL, q);
}

static int alltoallv(int form, const int *s, const int *sc, const int *sd,
                     int *r, const int *rc, const int *rd, MPI_Request *q)
{
    return form == 0 ? MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT,
                                     comm)
           : form == 1 ? MPI_Ialltoallv(s, sc, sd, MPI_INT, r, rc, rd,
                                        MPI_INT, comm, q)
                       : MPI_Alltoallv_init(s, sc, sd, MPI_INT, r, rc, rd,
                                            MPI_INT, comm, MPI_INFO_NULL, q);
}

/* ---- erroneous calls: every rank fails ---- */

static void bad_op(int form)
{
    int v = 2, out = -1;
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = reduce(form, &v, &out, 1, MPI_INT,
                    rank == 0 ? MPI_PROD : MPI_SUM, 0, &q);

    expect(finish(rc, &q, form), MPI_ERR_OP, "reduce PROD/SUM", form);
    if (rank == 0 && out != -1)
        FAIL("reduce PROD/SUM (%s): data moved (%d)", form_name[form], out);
}

static void bad_root(int form)
{
    int v[2] = {rank, rank};
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = bcast(form, v, 2, MPI_INT, rank == size - 1 ? rank : 0, &q);

    expect(finish(rc, &q, form), MPI_ERR_ROOT, "bcast self-root", form);
    if (v[0] != rank)
        FAIL("bcast self-root (%s): data moved", form_name[form]);
}

static void bad_call(int form)
{
    int v = rank + 10, out = -1;
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = rank == 0 ? bcast(form, &v, 1, MPI_INT, 0, &q)
                       : allreduce(form, &v, &out, 1, MPI_SUM, &q);

    expect(finish(rc, &q, form), MPI_ERR_OTHER, "bcast vs allreduce", form);
    if (out != -1 || v != rank + 10)
        FAIL("bcast vs allreduce (%s): data moved", form_name[form]);
}

static void bad_type(int form)
{
    int v[4] = {rank, rank, rank, rank};
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = bcast(form, v, 4, rank == 0 ? MPI_INT : MPI_FLOAT, 0, &q);

    expect(finish(rc, &q, form), MPI_ERR_TYPE, "bcast INT/FLOAT", form);
    if (v[3] != rank)
        FAIL("bcast INT/FLOAT (%s): data moved", form_name[form]);
}

static void bad_gatherv(int form)
{
    int *cnt = malloc(sizeof(int) * (size_t)size);
    int *dis = malloc(sizeof(int) * (size_t)size);
    int *r = malloc(sizeof(int) * 3 * (size_t)size);
    int s[3] = {rank, rank, rank};
    MPI_Request q = MPI_REQUEST_NULL;

    for (int i = 0; i < size; i++) {
        cnt[i] = 2;
        dis[i] = 3 * i;
    }
    for (int i = 0; i < 3 * size; i++)
        r[i] = -1;
    int rc = gatherv(form, s, rank == size - 1 ? 3 : 2, r, cnt, dis, &q);
    expect(finish(rc, &q, form), MPI_ERR_TRUNCATE, "gatherv counts", form);
    if (rank == 0 && r[0] != -1)
        FAIL("gatherv counts (%s): data moved", form_name[form]);
    free(cnt);
    free(dis);
    free(r);
}

static void bad_alltoallv(int form)
{
    size_t n = (size_t)size;
    int *sc = calloc(n, sizeof(int)), *rc_ = calloc(n, sizeof(int));
    int *sd = calloc(n, sizeof(int)), *rd = calloc(n, sizeof(int));
    int *s = calloc(2 * n, sizeof(int)), *r = malloc(2 * n * sizeof(int));
    MPI_Request q = MPI_REQUEST_NULL;

    for (int i = 0; i < size; i++) {
        sc[i] = rc_[i] = 1;
        sd[i] = rd[i] = 2 * i;
        r[2 * i] = r[2 * i + 1] = -1;
    }
    if (rank == 0)
        sc[1] = 2;                /* rank 1 expects one */
    int rc = alltoallv(form, s, sc, sd, r, rc_, rd, &q);
    expect(finish(rc, &q, form), MPI_ERR_TRUNCATE, "alltoallv counts", form);
    if (r[0] != -1)
        FAIL("alltoallv counts (%s): data moved", form_name[form]);
    free(sc);
    free(rc_);
    free(sd);
    free(rd);
    free(s);
    free(r);
}

/* MPICH's errors/coll/gatherlength: the root's receive count (1) is
 * shorter than what every rank sends (4), its own block included, so
 * the root's own argument check fails too and its error path runs the
 * others' schedule blocking inside MPI_Igather: it must take the check
 * along (the others' schedules wait for it) instead of hanging. */
static void bad_root_block(int form)
{
    int s[4] = {rank, rank, rank, rank};
    int *r = malloc(sizeof(int) * 4 * (size_t)size);
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = form == 0
                 ? MPI_Gather(s, 4, MPI_INT, r, rank ? 4 : 1, MPI_INT, 0, comm)
             : form == 1 ? MPI_Igather(s, 4, MPI_INT, r, rank ? 4 : 1,
                                       MPI_INT, 0, comm, &q)
                         : MPI_Gather_init(s, 4, MPI_INT, r, rank ? 4 : 1,
                                           MPI_INT, 0, comm, MPI_INFO_NULL,
                                           &q);
    int cls = MPI_SUCCESS;

    rc = finish(rc, &q, form);
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    /* the root may report its own count first */
    expect(cls == MPI_ERR_TRUNCATE || cls == MPI_ERR_COUNT ? MPI_ERR_TRUNCATE
                                                           : rc,
           MPI_ERR_TRUNCATE, "gather short root count", form);
    free(r);
}

/* Two collectives whose 8-bit tag signatures collide (lib/p2p/tag.h):
 * MPI_Bcast from rank 1 (binomial, shape 1) and MPI_Gatherv to rank 0
 * (linear, shape 0), on a comm of ranks 0 and 1.  Over p2p (the
 * nonblocking forms) the default mode matches rank 1's gatherv block as
 * rank 0's bcast data and both return MPI_SUCCESS; checked, both fail
 * with MPI_ERR_OTHER. */
static void bad_collide(int form, MPI_Comm pair)
{
    int v = 5, x = 77, cnt[2] = {1, 1}, dis[2] = {0, 1}, r[2];
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Comm keep = comm;
    int keep_size = size, rc;

    comm = pair;
    size = 2;
    rc = rank == 0 ? bcast(form, &v, 1, MPI_INT, 1, &q)
                   : gatherv(form, &x, 1, r, cnt, dis, &q);
    expect(finish(rc, &q, form), MPI_ERR_OTHER, "bcast vs gatherv (tags "
           "collide)", form);
    if (v != 5)
        FAIL("bcast vs gatherv (%s): data moved (%d)", form_name[form], v);
    comm = keep;
    size = keep_size;
}

/* ---- correct calls: no false positive ---- */

static void check_ok(int rc, const char *what)
{
    if (rc != MPI_SUCCESS)
        FAIL("%s: rc %d on a correct call", what, rc);
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void good_calls(void)
{
    size_t n = (size_t)size;
    int v[4], out[4], *all = malloc(4 * n * sizeof(int));
    int *cnt = malloc(n * sizeof(int)), *dis = malloc(n * sizeof(int));
    MPI_Datatype pair, *tys = malloc(n * sizeof(MPI_Datatype));
    MPI_Op uop;
    int z = 0;

    /* count 0: any type on any rank */
    check_ok(MPI_Bcast(&z, 0, rank ? MPI_FLOAT : MPI_INT, 0, comm),
             "bcast count 0");
    /* in place */
    v[0] = rank;
    check_ok(MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INT, MPI_SUM, comm),
             "allreduce in place");
    if (v[0] != size * (size - 1) / 2)
        FAIL("allreduce in place: %d", v[0]);
    for (int i = 0; i < size; i++)
        all[i] = rank == i ? i : -1;
    check_ok(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1,
                           MPI_INT, comm), "allgather in place");
    for (int i = 0; i < size; i++) {
        cnt[i] = 1;
        dis[i] = i;
    }
    check_ok(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, cnt, dis,
                            MPI_INT, comm), "allgatherv in place");
    /* non-roots' ignored receive arguments, the root's in-place send */
    v[0] = rank;
    check_ok(rank == 0 ? MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all,
                                    1, MPI_INT, 0, comm)
                       : MPI_Gather(v, 1, MPI_INT, NULL, -5, MPI_DATATYPE_NULL,
                                    0, comm), "gather");
    check_ok(MPI_Scatter(all, 1, MPI_INT, v, 1, MPI_INT, 0, comm), "scatter");
    /* a derived type against its basic type; a user op on every rank */
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    v[0] = v[1] = v[2] = v[3] = 7;
    check_ok(rank == 0 ? MPI_Bcast(v, 2, pair, 0, comm)
                       : MPI_Bcast(v, 4, MPI_INT, 0, comm), "bcast derived");
    MPI_Op_create(user_sum, 1, &uop);
    v[0] = 1;
    check_ok(MPI_Allreduce(v, out, 1, MPI_INT, uop, comm), "user op");
    if (out[0] != size)
        FAIL("user op: %d", out[0]);
    MPI_Op_free(&uop);
    /* alltoallw (per-peer types), reduce_scatter counts, a nonblocking
     * correct call */
    for (int i = 0; i < size; i++) {
        cnt[i] = 1;
        dis[i] = i * (int)sizeof(int);
        tys[i] = MPI_INT;
        all[i] = rank;
    }
    check_ok(MPI_Alltoallw(all, cnt, dis, tys, all + size, cnt, dis, tys,
                           comm), "alltoallw");
    check_ok(MPI_Reduce_scatter(all, v, cnt, MPI_INT, MPI_SUM, comm),
             "reduce_scatter");
    MPI_Request q;
    check_ok(MPI_Iallreduce(all, out, 1, MPI_INT, MPI_MAX, comm, &q),
             "iallreduce");
    check_ok(MPI_Wait(&q, MPI_STATUS_IGNORE), "iallreduce wait");
    MPI_Type_free(&pair);
    free(all);
    free(cnt);
    free(dis);
    free(tys);
}

/* Rank 0 Ibcast; Send; Wait, rank 1 Recv; Ibcast; Wait: legal, and a
 * check that blocked in MPI_Ibcast would deadlock. */
static void no_deadlock(void)
{
    int v = rank == 0 ? 42 : -1, m = 5;
    MPI_Request q;

    if (rank == 1)
        MPI_Recv(&m, 1, MPI_INT, 0, 7, comm, MPI_STATUS_IGNORE);
    check_ok(MPI_Ibcast(&v, 1, MPI_INT, 0, comm, &q), "ibcast");
    if (rank == 0)
        MPI_Send(&m, 1, MPI_INT, 1, 7, comm);
    check_ok(MPI_Wait(&q, MPI_STATUS_IGNORE), "ibcast wait");
    if (v != 42)
        FAIL("ibcast after send/recv: %d", v);
}

/* A predefined type one rank renamed (MPI_Type_set_name) is still that
 * type to the check: types are not compared by name. */
static void renamed_type(void)
{
    _Bool b[3] = {rank == 0, 1, rank == 0};

    if (rank == 0)
        MPI_Type_set_name(MPI_C_BOOL, "renamed bool");
    check_ok(MPI_Bcast(b, 3, MPI_C_BOOL, 0, comm), "bcast of a renamed type");
    if (!b[0] || !b[1] || !b[2])
        FAIL("bcast of a renamed type: %d %d %d", b[0], b[1], b[2]);
    if (rank == 0)
        MPI_Type_set_name(MPI_C_BOOL, "MPI_C_BOOL");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    good_calls();
    MPI_Comm pair;
    MPI_Comm_split(comm, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    if (pair != MPI_COMM_NULL) {
        MPI_Comm_set_errhandler(pair, MPI_ERRORS_RETURN);
        for (int form = 0; size > 1 && form < 3; form++)
            bad_collide(form, pair);
        MPI_Comm_free(&pair);
    }
    if (size > 1) {
        no_deadlock();
        for (int form = 0; form < 3; form++) {
            bad_op(form);
            bad_root(form);
            bad_call(form);
            bad_type(form);
            bad_gatherv(form);
            bad_alltoallv(form);
            bad_root_block(form);
        }
    }
    renamed_type();
    good_calls();
    MPI_Comm_free(&comm);
    int rc = coll_verdict(errors);
    MPI_Finalize();
    return rc;
}
