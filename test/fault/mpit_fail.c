/*
 * The ucmpi_peer_failed MPI_T event end to end (test/fault/ulfm.sh, under
 * mpiexec --with-ft ulfm): every rank registers a THREAD_SAFE callback for
 * it (the runtime's thread may raise it); the victims kill themselves
 * (SIGKILL) after a barrier; each survivor waits, driving progress, until
 * its callback saw every victim's world rank, once each, and reads the event
 * source and timestamp.  Prints "rank R: ULFM-OK", or "ULFM-FAIL" lines.
 *
 *   mpit_fail MODE VICTIMS     (MODE is ignored; VICTIMS: world ranks)
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int me, errs;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            printf("rank %d: ULFM-FAIL mpit_fail:%d: ", me, __LINE__);       \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
            fflush(stdout);                                                  \
            errs++;                                                          \
        }                                                                    \
    } while (0)

static int seen[64], calls, bad;

static void on_failed(MPI_T_event_instance in, MPI_T_event_registration r,
                      MPI_T_cb_safety level, void *user)
{
    int rank = -1, source = -1;
    MPI_Count ts = 0;

    (void)r;
    (void)user;
    if (MPI_T_event_read(in, 0, &rank) != MPI_SUCCESS || rank < 0 ||
        rank >= 64 || level != MPI_T_CB_REQUIRE_THREAD_SAFE ||
        MPI_T_event_get_source(in, &source) != MPI_SUCCESS ||
        MPI_T_event_get_timestamp(in, &ts) != MPI_SUCCESS)
        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    else
        __atomic_add_fetch(&seen[rank], 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&calls, 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
    int np, provided, idx, victim[8], nv = 0;
    MPI_T_event_registration reg;

    if (argc < 3) {
        fprintf(stderr, "usage: mpit_fail MODE VICTIMS\n");
        return 2;
    }
    for (char *p = argv[2]; *p && nv < 8; p++) {
        victim[nv++] = (int)strtol(p, &p, 10);
        if (*p != ',')
            break;
    }
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided);
    CHECK(MPI_T_event_get_index("ucmpi_peer_failed", &idx) == MPI_SUCCESS,
          "no ucmpi_peer_failed event");
    CHECK(MPI_T_event_handle_alloc(idx, NULL, MPI_INFO_NULL, &reg) ==
              MPI_SUCCESS, "handle_alloc");
    CHECK(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                        MPI_INFO_NULL, NULL, on_failed) ==
              MPI_SUCCESS, "register_callback");
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < nv; i++)
        if (victim[i] == me) {
            fflush(stdout);
            raise(SIGKILL);
        }
    /* survivors: progress until every victim was reported (or 60 s) */
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int all = 0;
    do {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &flag,
                   MPI_STATUS_IGNORE);
        all = 1;
        for (int i = 0; i < nv; i++)
            if (__atomic_load_n(&seen[victim[i]], __ATOMIC_ACQUIRE) == 0)
                all = 0;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (!all && t.tv_sec - t0.tv_sec < 60);
    CHECK(all, "the callback did not see every victim (%d calls)",
          __atomic_load_n(&calls, __ATOMIC_ACQUIRE));
    for (int i = 0; i < nv; i++)
        CHECK(seen[victim[i]] == 1, "rank %d reported %d times", victim[i],
              seen[victim[i]]);
    for (int r = 0; r < np && r < 64; r++) {
        int v = 0;
        for (int i = 0; i < nv; i++)
            v |= victim[i] == r;
        CHECK(v || seen[r] == 0, "live rank %d reported failed", r);
    }
    CHECK(bad == 0, "%d events with a wrong element, level, source or time",
          bad);
    CHECK(MPI_T_event_handle_free(reg, NULL, NULL) == MPI_SUCCESS,
          "handle_free");
    MPI_T_finalize();
    if (errs == 0)
        printf("rank %d: ULFM-OK\n", me);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
