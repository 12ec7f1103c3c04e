/*
 * ULFM tests (test/fault/ulfm.sh, under mpiexec --with-ft ulfm): the victim
 * ranks kill themselves (raise(SIGKILL)) at a chosen point; every survivor
 * checks what the ULFM calls report and prints "rank R: ULFM-OK" at the end
 * when all its checks passed (else one "ULFM-FAIL" line per failed check).
 *
 *   ulfm_prog MODE VICTIMS       VICTIMS: comma-separated world ranks, or -
 *
 * Modes: p2p (receive from the dead rank, get_failed, ack_failed,
 * failure_ack/get_acked, shrink), anysource (ANY_SOURCE receives report
 * MPIX_ERR_PROC_FAILED_PENDING until acknowledged), revoke (pending and later
 * operations fail with MPIX_ERR_REVOKED; shrink and agree still work; without
 * victims too), agree (after a failure: the AND of the survivors' flags,
 * MPIX_ERR_PROC_FAILED until acknowledged), agree_during (the victims start an
 * iagree and die in it), agree_coord (the coordinator dies while it sends the
 * decision: UCMPI_FT_TEST_COORD_DIE), shrink (then shrink again), coll (a rank
 * dies in a loop of allreduces: the survivors see the error, revoke, shrink
 * and go on), pending (nonblocking transfers with the victim pending at its
 * death), poll (programs that poll: MPI_Test/Testany/Testsome/Testall,
 * MPI_Iprobe/Improbe and MPI_Request_get_status see the failure; a
 * nonblocking ANY_SOURCE receive stays pending until the failure is
 * acknowledged, then matches a later message or is cancelled),
 * poll_revoke (polled requests on a revoked comm end with MPIX_ERR_REVOKED),
 * stop (the victims stop themselves with SIGSTOP: mpiexec's
 * --ft-stop-timeout declares them failed, the survivors shrink and go on).
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int me, np, errs;
static int victim[8], nv;
static const char *mode;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            printf("rank %d: ULFM-FAIL %s:%d: ", me, mode, __LINE__);        \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
            fflush(stdout);                                                  \
            errs++;                                                          \
        }                                                                    \
    } while (0)

static int eclass(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

static int is_victim(int r)
{
    for (int i = 0; i < nv; i++)
        if (victim[i] == r)
            return 1;
    return 0;
}

static void die(void)
{
    fflush(stdout);
    raise(SIGKILL);
}

static void die_if_victim(void)
{
    if (is_victim(me))
        die();
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Survivors in world order; my index among them. */
static int survivors(int *list)
{
    int n = 0;
    for (int r = 0; r < np; r++)
        if (!is_victim(r))
            list[n++] = r;
    return n;
}

static int my_index(void)
{
    int n = 0;
    for (int r = 0; r < me; r++)
        n += !is_victim(r);
    return n;
}

/* Until comm's failed group has k members (at most 30 s). */
static int wait_failed(MPI_Comm comm, int k)
{
    double t0 = now();
    int n = 0;

    while (now() - t0 < 30) {
        MPI_Group g;
        MPIX_Comm_get_failed(comm, &g);
        MPI_Group_size(g, &n);
        MPI_Group_free(&g);
        if (n >= k)
            return n;
        usleep(1000);
    }
    return n;
}

/* The survivors' communicator checked: size, ranks in order, an allreduce. */
static void check_shrunk(MPI_Comm s, const char *what)
{
    int list[64], ns = survivors(list), sz, r, sum = 0, want = 0, rc;

    MPI_Comm_size(s, &sz);
    MPI_Comm_rank(s, &r);
    CHECK(sz == ns, "%s: size %d, want %d", what, sz, ns);
    CHECK(r == my_index(), "%s: rank %d, want %d", what, r, my_index());
    rc = MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, s);
    for (int i = 0; i < ns; i++)
        want += list[i];
    CHECK(rc == MPI_SUCCESS && sum == want, "%s: allreduce rc %d sum %d, "
          "want %d", what, eclass(rc), sum, want);
}

static void mode_p2p(void)
{
    int v = victim[0], x = 0, rc, n, list[64], ns = survivors(list);
    MPI_Comm s;
    MPI_Group g, wg;

    MPI_Barrier(MPI_COMM_WORLD);
    die_if_victim();
    if (me == list[0]) {
        rc = MPI_Recv(&x, 1, MPI_INT, v, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "recv from dead rank %d: "
              "class %d", v, eclass(rc));
        rc = MPI_Send(&x, 1, MPI_INT, v, 1, MPI_COMM_WORLD);
        CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED || rc == MPI_SUCCESS,
              "send to dead rank: class %d", eclass(rc));
    }
    n = wait_failed(MPI_COMM_WORLD, nv);
    CHECK(n == nv, "get_failed: %d failed, want %d", n, nv);
    MPIX_Comm_get_failed(MPI_COMM_WORLD, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int i = 0; i < n && i < nv; i++) {
        int w;
        MPI_Group_translate_ranks(g, 1, &i, wg, &w);
        CHECK(is_victim(w), "get_failed names rank %d, not a victim", w);
    }
    MPI_Group_free(&g);
    MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &g);
    MPI_Group_size(g, &n);
    MPI_Group_free(&g);
    CHECK(n == 0, "%d acknowledged before any ack", n);
    rc = MPIX_Comm_ack_failed(MPI_COMM_WORLD, 0, &n);
    CHECK(rc == MPI_SUCCESS && n == 0, "ack_failed(0): rc %d, %d acked", rc, n);
    rc = MPIX_Comm_ack_failed(MPI_COMM_WORLD, np, &n);
    CHECK(rc == MPI_SUCCESS && n == nv, "ack_failed(np): %d acked, want %d",
          n, nv);
    MPIX_Comm_failure_ack(MPI_COMM_WORLD);
    MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &g);
    MPI_Group_size(g, &n);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    CHECK(n == nv, "failure_get_acked: %d, want %d", n, nv);
    MPIX_Comm_is_revoked(MPI_COMM_WORLD, &n);
    CHECK(n == 0, "world revoked without a revoke");
    /* the survivors still talk: a ring among them */
    if (ns > 1) {
        int i = my_index(), y = -1;
        rc = MPI_Sendrecv(&me, 1, MPI_INT, list[(i + 1) % ns], 2, &y, 1,
                          MPI_INT, list[(i + ns - 1) % ns], 2, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && y == list[(i + ns - 1) % ns],
              "ring among survivors: rc %d got %d", eclass(rc), y);
    }
    rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &s);
    CHECK(rc == MPI_SUCCESS, "shrink: class %d", eclass(rc));
    if (rc == MPI_SUCCESS) {
        check_shrunk(s, "shrunk world");
        MPI_Comm_free(&s);
    }
}

static void mode_anysource(void)
{
    int x = -1, rc, list[64], ns = survivors(list), i = my_index();
    MPI_Request req;
    MPI_Status st;

    MPI_Barrier(MPI_COMM_WORLD);
    die_if_victim();
    /* ULFM: a blocking one fails, a nonblocking one stays pending */
    rc = MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED,
          "blocking ANY_SOURCE recv: class %d", eclass(rc));
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &req);
    rc = MPI_Wait(&req, &st);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED_PENDING,
          "nonblocking ANY_SOURCE recv: class %d", eclass(rc));
    CHECK(req != MPI_REQUEST_NULL, "the pending ANY_SOURCE receive was freed");
    if (req != MPI_REQUEST_NULL) {
        MPI_Cancel(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    /* a receive from a live rank is not concerned */
    if (ns > 1) {
        rc = MPI_Sendrecv(&me, 1, MPI_INT, list[(i + 1) % ns], 6, &x, 1,
                          MPI_INT, list[(i + ns - 1) % ns], 6, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS, "named-source recv: class %d", eclass(rc));
    }
    MPIX_Comm_failure_ack(MPI_COMM_WORLD);
    if (ns > 1) {
        x = -1;
        MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &req);
        MPI_Send(&me, 1, MPI_INT, list[(i + 1) % ns], 8, MPI_COMM_WORLD);
        rc = MPI_Wait(&req, &st);
        CHECK(rc == MPI_SUCCESS && x == list[(i + ns - 1) % ns] &&
              st.MPI_SOURCE == x, "ANY_SOURCE after ack: class %d got %d",
              eclass(rc), x);
    }
}

/* Creation calls on a revoked comm fail with MPIX_ERR_REVOKED (at once:
 * no rank waits for the others). */
static void check_no_creation(MPI_Comm c)
{
    int rc, dims[1] = {0}, periods[1] = {0};
    MPI_Comm d = MPI_COMM_NULL;
    MPI_Group g;
    MPI_Request req;

    rc = MPI_Comm_dup(c, &d);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED && d == MPI_COMM_NULL,
          "MPI_Comm_dup of a revoked comm: class %d", eclass(rc));
    rc = MPI_Comm_idup(c, &d, &req);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED, "MPI_Comm_idup: class %d",
          eclass(rc));
    rc = MPI_Comm_split(c, 0, me, &d);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED, "MPI_Comm_split: class %d",
          eclass(rc));
    rc = MPI_Comm_split_type(c, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &d);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED, "MPI_Comm_split_type: class %d",
          eclass(rc));
    MPI_Comm_group(c, &g);
    rc = MPI_Comm_create(c, g, &d);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED, "MPI_Comm_create: class %d",
          eclass(rc));
    rc = MPI_Comm_create_group(c, g, 5, &d);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED, "MPI_Comm_create_group: class %d",
          eclass(rc));
    MPI_Group_free(&g);
    dims[0] = np;
    rc = MPI_Cart_create(c, 1, dims, periods, 0, &d);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED, "MPI_Cart_create: class %d",
          eclass(rc));
}

static void mode_revoke(void)
{
    int list[64], ns = survivors(list), x, rc, flag;
    MPI_Comm c, s;
    MPI_Request req;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Barrier(c);
    die_if_victim();
    if (me == list[0]) {
        wait_failed(c, nv);
        usleep(100000);              /* the others are blocked by now */
        rc = MPIX_Comm_revoke(c);
        CHECK(rc == MPI_SUCCESS, "revoke: class %d", eclass(rc));
        rc = MPI_Send(&me, 1, MPI_INT, list[ns > 1 ? 1 : 0], 9, c);
        CHECK(eclass(rc) == MPIX_ERR_REVOKED, "send after revoke: class %d",
              eclass(rc));
        rc = MPI_Barrier(c);
        CHECK(eclass(rc) == MPIX_ERR_REVOKED, "barrier after revoke: class "
              "%d", eclass(rc));
    } else {
        MPI_Irecv(&x, 1, MPI_INT, list[0], 10, c, &req);
        rc = MPI_Recv(&x, 1, MPI_INT, list[0], 11, c, MPI_STATUS_IGNORE);
        CHECK(eclass(rc) == MPIX_ERR_REVOKED, "blocked recv: class %d",
              eclass(rc));
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(eclass(rc) == MPIX_ERR_REVOKED, "pending irecv: class %d",
              eclass(rc));
        rc = MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 11, c, MPI_STATUS_IGNORE);
        CHECK(eclass(rc) == MPIX_ERR_REVOKED, "recv after revoke: class %d",
              eclass(rc));
    }
    MPIX_Comm_is_revoked(c, &flag);
    CHECK(flag == 1, "is_revoked %d", flag);
    check_no_creation(c);
    rc = MPI_Allreduce(&me, &x, 1, MPI_INT, MPI_SUM, c);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED, "allreduce on revoked: class %d",
          eclass(rc));
    flag = 1;
    rc = MPIX_Comm_agree(c, &flag);
    CHECK(eclass(rc) == MPI_SUCCESS || eclass(rc) == MPIX_ERR_PROC_FAILED,
          "agree on revoked comm: class %d", eclass(rc));
    CHECK(flag == 1, "agree on revoked comm: flag %d", flag);
    rc = MPIX_Comm_shrink(c, &s);
    CHECK(rc == MPI_SUCCESS, "shrink of revoked comm: class %d", eclass(rc));
    if (rc == MPI_SUCCESS) {
        MPIX_Comm_is_revoked(s, &flag);
        CHECK(flag == 0, "the shrunk comm is revoked");
        check_shrunk(s, "shrunk revoked comm");
        MPI_Comm_free(&s);
    }
    MPI_Comm_free(&c);
}

/* The outcome is the same on every survivor (shrunk comm's allgather). */
static void check_same(int v, const char *what)
{
    int all[64], rc, ns;
    MPI_Comm s;

    if (MPIX_Comm_shrink(MPI_COMM_WORLD, &s) != MPI_SUCCESS) {
        CHECK(0, "%s: shrink failed", what);
        return;
    }
    MPI_Comm_size(s, &ns);
    rc = MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, s);
    CHECK(rc == MPI_SUCCESS, "%s: allgather class %d", what, eclass(rc));
    for (int i = 0; i < ns; i++)
        CHECK(all[i] == v, "%s: survivor %d has %#x, I have %#x", what, i,
              all[i], v);
    MPI_Comm_free(&s);
}

static int my_flag(int r)
{
    return ~(1 << (r % 30));
}

static void mode_agree(void)
{
    int list[64], ns = survivors(list), want = ~0, flag, rc;

    for (int i = 0; i < ns; i++)
        want &= my_flag(list[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    die_if_victim();
    flag = my_flag(me);
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "agree with unacknowledged "
          "failure: class %d", eclass(rc));
    CHECK(flag == want, "agree: flag %#x, want %#x", flag, want);
    MPIX_Comm_failure_ack(MPI_COMM_WORLD);
    flag = me == list[ns - 1] ? 0 : ~0;
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(rc == MPI_SUCCESS, "agree after ack: class %d", eclass(rc));
    CHECK(flag == 0, "agree after ack: flag %#x, want 0", flag);
    check_same(flag, "agree");
}

static void mode_agree_during(void)
{
    int list[64], ns = survivors(list), want = ~0, flag, rc, vflag = ~0;
    MPI_Request req;

    for (int i = 0; i < ns; i++)
        want &= my_flag(list[i]);
    for (int i = 0; i < nv; i++)
        vflag &= my_flag(victim[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    flag = my_flag(me);
    if (is_victim(me)) {
        MPIX_Comm_iagree(MPI_COMM_WORLD, &flag, &req);
        for (int i = 0; i < 100; i++)   /* its contribution may go out */
            MPI_Test(&req, &rc, MPI_STATUS_IGNORE);
        die();
    }
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(rc == MPI_SUCCESS || eclass(rc) == MPIX_ERR_PROC_FAILED,
          "agree: class %d", eclass(rc));
    CHECK(flag == want || flag == (want & vflag), "agree: flag %#x, want %#x "
          "(or %#x)", flag, want, want & vflag);
    check_same(flag, "agree during a failure");
}

static void mode_agree_coord(void)
{
    /* the victim is rank 0, the coordinator: UCMPI_FT_TEST_COORD_DIE makes
     * it die after sending the decision to one rank */
    int list[64], ns = survivors(list), want = ~0, flag, rc;

    for (int i = 0; i < np; i++)
        want &= my_flag(i);
    MPI_Barrier(MPI_COMM_WORLD);
    flag = my_flag(me);
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(!is_victim(me), "the coordinator survived its agreement");
    CHECK(rc == MPI_SUCCESS || eclass(rc) == MPIX_ERR_PROC_FAILED,
          "agree: class %d", eclass(rc));
    /* the victim decided with every flag: whoever got it hands it on */
    CHECK(flag == want, "agree: flag %#x, want %#x", flag, want);
    (void)ns;
    check_same(flag, "agree with the coordinator dying");
}

static void mode_shrink(void)
{
    int rc;
    MPI_Comm s, s2;

    MPI_Barrier(MPI_COMM_WORLD);
    die_if_victim();
    rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &s);
    CHECK(rc == MPI_SUCCESS, "shrink: class %d", eclass(rc));
    if (rc != MPI_SUCCESS)
        return;
    check_shrunk(s, "shrunk");
    rc = MPIX_Comm_shrink(s, &s2);      /* nothing failed in s */
    CHECK(rc == MPI_SUCCESS, "second shrink: class %d", eclass(rc));
    if (rc == MPI_SUCCESS) {
        check_shrunk(s2, "shrunk twice");
        MPI_Comm_free(&s2);
    }
    MPI_Comm_free(&s);
}

static void mode_stop(void)
{
    int rc;
    MPI_Comm s;

    MPI_Barrier(MPI_COMM_WORLD);
    if (is_victim(me)) {
        fflush(stdout);
        raise(SIGSTOP);                 /* mpiexec kills it, stopped */
        CHECK(0, "a stopped victim was continued");
        return;
    }
    rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &s);
    CHECK(rc == MPI_SUCCESS, "shrink: class %d", eclass(rc));
    if (rc != MPI_SUCCESS)
        return;
    check_shrunk(s, "shrunk after a stop");
    MPI_Comm_free(&s);
}

static void mode_coll(void)
{
    int list[64], ns = survivors(list), rc = MPI_SUCCESS, sum, it, n;
    MPI_Comm c, s;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    for (it = 0; it < 100000 && rc == MPI_SUCCESS; it++) {
        if (it == 50)
            die_if_victim();
        rc = MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c);
        if (rc == MPI_SUCCESS && it < 50)
            CHECK(sum == np * (np - 1) / 2, "allreduce %d before: %d", it, sum);
    }
    CHECK(it > 50, "allreduce failed at %d, before the failure", it);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED || eclass(rc) == MPIX_ERR_REVOKED,
          "allreduce with a dead rank: class %d", eclass(rc));
    MPIX_Comm_revoke(c);                 /* the others may still wait */
    rc = MPIX_Comm_shrink(c, &s);
    CHECK(rc == MPI_SUCCESS, "shrink: class %d", eclass(rc));
    if (rc == MPI_SUCCESS) {
        for (int i = 0; i < 20; i++)
            check_shrunk(s, "after the failure");
        MPI_Comm_size(s, &n);
        CHECK(n == ns, "shrunk size %d", n);
        MPI_Comm_free(&s);
    }
    MPI_Comm_free(&c);
}

static void mode_pending(void)
{
    enum { BIG = 1 << 20 };
    char *sb = calloc(BIG, 1), *rb = calloc(BIG, 1);
    MPI_Request r[2];
    MPI_Status st[2];
    int v = victim[0], rc;

    if (!is_victim(me)) {
        MPI_Irecv(rb, BIG, MPI_CHAR, v, 3, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(sb, BIG, MPI_CHAR, v, 4, MPI_COMM_WORLD, &r[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    die_if_victim();
    rc = MPI_Waitall(2, r, st);
    CHECK(eclass(rc) == MPI_ERR_IN_STATUS, "waitall: class %d", eclass(rc));
    CHECK(eclass(st[0].MPI_ERROR) == MPIX_ERR_PROC_FAILED, "irecv from the "
          "dead rank: class %d", eclass(st[0].MPI_ERROR));
    CHECK(eclass(st[1].MPI_ERROR) == MPIX_ERR_PROC_FAILED, "isend (rendezvous)"
          " to the dead rank: class %d", eclass(st[1].MPI_ERROR));
    free(sb);
    free(rb);
}

/* Polls f (a test-style call) until it reports an error or completion (at
 * most 30 s): its error class, 0 when it completed without error. */
#define POLL_UNTIL(done, call)                                               \
    do {                                                                     \
        double t0_ = now();                                                  \
        rc = MPI_SUCCESS;                                                    \
        for (done = 0; !done && rc == MPI_SUCCESS && now() - t0_ < 30;)      \
            rc = (call);                                                     \
    } while (0)

/* Polling a receive from the dead rank, and probes, with every test call. */
static void poll_dead(int v)
{
    int x, rc, flag, idx, n, idxs[1];
    MPI_Request r;
    MPI_Status st, sts[1];
    MPI_Message msg;

    MPI_Irecv(&x, 1, MPI_INT, v, 30, MPI_COMM_WORLD, &r);
    POLL_UNTIL(flag, MPI_Test(&r, &flag, &st));
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "MPI_Test of a receive from the "
          "dead rank: class %d flag %d", eclass(rc), flag);
    MPI_Irecv(&x, 1, MPI_INT, v, 30, MPI_COMM_WORLD, &r);
    POLL_UNTIL(flag, MPI_Testany(1, &r, &idx, &flag, &st));
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED && idx == 0, "MPI_Testany: class "
          "%d index %d", eclass(rc), idx);
    MPI_Irecv(&x, 1, MPI_INT, v, 30, MPI_COMM_WORLD, &r);
    POLL_UNTIL(n, MPI_Testsome(1, &r, &n, idxs, sts));
    CHECK(eclass(rc) == MPI_ERR_IN_STATUS && n == 1 &&
          eclass(sts[0].MPI_ERROR) == MPIX_ERR_PROC_FAILED, "MPI_Testsome: "
          "class %d outcount %d", eclass(rc), n);
    MPI_Irecv(&x, 1, MPI_INT, v, 30, MPI_COMM_WORLD, &r);
    POLL_UNTIL(flag, MPI_Testall(1, &r, &flag, sts));
    CHECK(eclass(rc) == MPI_ERR_IN_STATUS &&
          eclass(sts[0].MPI_ERROR) == MPIX_ERR_PROC_FAILED, "MPI_Testall: "
          "class %d", eclass(rc));
    MPI_Irecv(&x, 1, MPI_INT, v, 30, MPI_COMM_WORLD, &r);
    st.MPI_ERROR = MPI_SUCCESS;
    POLL_UNTIL(flag, MPI_Request_get_status(r, &flag, &st));
    CHECK(rc == MPI_SUCCESS && flag &&
          eclass(st.MPI_ERROR) == MPIX_ERR_PROC_FAILED,
          "MPI_Request_get_status: class %d flag %d status class %d",
          eclass(rc), flag, eclass(st.MPI_ERROR));
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "wait after get_status: %d",
          eclass(rc));
    POLL_UNTIL(flag, MPI_Iprobe(v, 30, MPI_COMM_WORLD, &flag, &st));
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "MPI_Iprobe of the dead rank: "
          "class %d flag %d", eclass(rc), flag);
    POLL_UNTIL(flag, MPI_Improbe(v, 30, MPI_COMM_WORLD, &flag, &msg, &st));
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "MPI_Improbe of the dead rank: "
          "class %d flag %d", eclass(rc), flag);
    rc = MPI_Probe(v, 30, MPI_COMM_WORLD, &st);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "MPI_Probe of the dead rank: "
          "class %d", eclass(rc));
}

/* A nonblocking ANY_SOURCE receive while the failure is not acknowledged:
 * every test and wait call reports MPIX_ERR_PROC_FAILED_PENDING and leaves
 * it; probes and blocking receives fail. */
static void poll_anysource(MPI_Request *r)
{
    int x, rc, flag, idx, n, idxs[1];
    MPI_Status st, sts[1];

    POLL_UNTIL(flag, MPI_Test(r, &flag, &st));
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED_PENDING && !flag &&
          *r != MPI_REQUEST_NULL, "MPI_Test: class %d flag %d", eclass(rc),
          flag);
    POLL_UNTIL(flag, MPI_Testany(1, r, &idx, &flag, &st));
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED_PENDING && idx == 0 &&
          *r != MPI_REQUEST_NULL, "MPI_Testany: class %d index %d",
          eclass(rc), idx);
    POLL_UNTIL(n, MPI_Testsome(1, r, &n, idxs, sts));
    CHECK(eclass(rc) == MPI_ERR_IN_STATUS && n == 1 &&
          eclass(sts[0].MPI_ERROR) == MPIX_ERR_PROC_FAILED_PENDING &&
          *r != MPI_REQUEST_NULL, "MPI_Testsome: class %d outcount %d",
          eclass(rc), n);
    POLL_UNTIL(flag, MPI_Testall(1, r, &flag, sts));
    CHECK(eclass(rc) == MPI_ERR_IN_STATUS &&
          eclass(sts[0].MPI_ERROR) == MPIX_ERR_PROC_FAILED_PENDING &&
          *r != MPI_REQUEST_NULL, "MPI_Testall: class %d", eclass(rc));
    POLL_UNTIL(flag, MPI_Request_get_status(*r, &flag, &st));
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED_PENDING && !flag,
          "MPI_Request_get_status: class %d flag %d", eclass(rc), flag);
    rc = MPI_Wait(r, &st);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED_PENDING && *r != MPI_REQUEST_NULL,
          "MPI_Wait: class %d", eclass(rc));
    rc = MPI_Waitany(1, r, &idx, &st);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED_PENDING && idx == 0 &&
          *r != MPI_REQUEST_NULL, "MPI_Waitany: class %d", eclass(rc));
    rc = MPI_Waitall(1, r, sts);
    CHECK(eclass(rc) == MPI_ERR_IN_STATUS &&
          eclass(sts[0].MPI_ERROR) == MPIX_ERR_PROC_FAILED_PENDING &&
          *r != MPI_REQUEST_NULL, "MPI_Waitall: class %d", eclass(rc));
    rc = MPI_Waitsome(1, r, &n, idxs, sts);
    CHECK(eclass(rc) == MPI_ERR_IN_STATUS && n == 1 &&
          *r != MPI_REQUEST_NULL, "MPI_Waitsome: class %d", eclass(rc));
    POLL_UNTIL(flag, MPI_Iprobe(MPI_ANY_SOURCE, 31, MPI_COMM_WORLD, &flag,
                                &st));
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "MPI_Iprobe(ANY_SOURCE): class "
          "%d flag %d", eclass(rc), flag);
    rc = MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 31, MPI_COMM_WORLD, &st);
    CHECK(eclass(rc) == MPIX_ERR_PROC_FAILED, "MPI_Recv(ANY_SOURCE): class "
          "%d", eclass(rc));
}

static void mode_poll(void)
{
    int list[64], ns = survivors(list), i = my_index(), x = -1, rc, flag;
    MPI_Request r, c;
    MPI_Status st;
    MPI_Comm s;

    MPI_Barrier(MPI_COMM_WORLD);
    die_if_victim();
    poll_dead(victim[0]);
    wait_failed(MPI_COMM_WORLD, nv);
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &r);
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &c);
    poll_anysource(&r);
    rc = MPI_Cancel(&c);                /* a pending one can be cancelled */
    rc = rc == MPI_SUCCESS ? MPI_Wait(&c, &st) : rc;
    flag = 0;
    MPI_Test_cancelled(&st, &flag);
    CHECK(rc == MPI_SUCCESS && flag, "cancel of the pending receive: class "
          "%d cancelled %d", eclass(rc), flag);
    MPIX_Comm_failure_ack(MPI_COMM_WORLD);
    /* acknowledged: it matches a message the survivors send only now */
    if (MPIX_Comm_shrink(MPI_COMM_WORLD, &s) != MPI_SUCCESS) {
        CHECK(0, "shrink failed");
        return;
    }
    MPI_Barrier(s);
    MPI_Send(&me, 1, MPI_INT, list[(i + 1) % ns], 20, MPI_COMM_WORLD);
    rc = MPI_Wait(&r, &st);
    CHECK(rc == MPI_SUCCESS && x == list[(i + ns - 1) % ns] &&
          st.MPI_SOURCE == x, "the pending receive after the ack: class %d "
          "got %d", eclass(rc), x);
    MPI_Comm_free(&s);
}

static void mode_poll_revoke(void)
{
    int list[64], ns = survivors(list), x, y, rc, flag;
    MPI_Request r[3];
    MPI_Status sts[3];
    MPI_Comm c;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Barrier(c);
    die_if_victim();
    if (me == list[0]) {
        wait_failed(c, nv);
        usleep(100000);              /* the others poll by now */
        rc = MPIX_Comm_revoke(c);
        CHECK(rc == MPI_SUCCESS, "revoke: class %d", eclass(rc));
    } else {
        MPI_Irecv(&x, 1, MPI_INT, list[0], 40, c, &r[0]);
        MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 41, c, &r[1]);
        MPI_Ibarrier(c, &r[2]);
        POLL_UNTIL(flag, MPI_Testall(3, r, &flag, sts));
        CHECK(eclass(rc) == MPI_ERR_IN_STATUS, "testall: class %d flag %d",
              eclass(rc), flag);
        for (int k = 0; k < 3 && eclass(rc) == MPI_ERR_IN_STATUS; k++)
            CHECK(eclass(sts[k].MPI_ERROR) == MPIX_ERR_REVOKED &&
                  r[k] == MPI_REQUEST_NULL, "request %d: class %d", k,
                  eclass(sts[k].MPI_ERROR));
    }
    rc = MPI_Iprobe(MPI_ANY_SOURCE, 42, c, &flag, MPI_STATUS_IGNORE);
    CHECK(eclass(rc) == MPIX_ERR_REVOKED, "iprobe on the revoked comm: class "
          "%d", eclass(rc));
    (void)ns;
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*fn)(void); } modes[] = {
        {"p2p", mode_p2p}, {"anysource", mode_anysource},
        {"revoke", mode_revoke}, {"agree", mode_agree},
        {"agree_during", mode_agree_during}, {"agree_coord", mode_agree_coord},
        {"shrink", mode_shrink}, {"coll", mode_coll},
        {"pending", mode_pending}, {"poll", mode_poll},
        {"poll_revoke", mode_poll_revoke}, {"stop", mode_stop},
    };
    void (*fn)(void) = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc < 3 || np > 64) {
        if (me == 0)
            fprintf(stderr, "usage: ulfm_prog MODE VICTIMS (at most 64 ranks)\n");
        MPI_Finalize();
        return 2;
    }
    mode = argv[1];
    for (char *p = argv[2]; *p != '\0' && *p != '-' && nv < 8;) {
        victim[nv++] = (int)strtol(p, &p, 10) % np;
        if (*p == ',')
            p++;
    }
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
        if (strcmp(mode, modes[i].name) == 0)
            fn = modes[i].fn;
    if (fn == NULL) {
        if (me == 0)
            fprintf(stderr, "ulfm_prog: unknown mode %s\n", mode);
        MPI_Finalize();
        return 2;
    }
    fn();
    if (errs == 0)
        printf("rank %d: ULFM-OK %s\n", me, mode);
    fflush(stdout);
    MPI_Finalize();
    return errs != 0;
}
