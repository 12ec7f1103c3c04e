/*
 * A rank whose own allgather(v)/alltoall arguments fail a check
 * (its own block's send and receive sizes differ, or its send buffer
 * overlaps its receive buffer) gets the error, and the others, which went
 * ahead, must neither hang nor keep a stale block from it: on the p2p
 * schedules they get an error too (the failed rank runs their schedule
 * with empty messages).  Before the fix an alias failure returned without
 * taking part (the others hung: 8 ranks, 4 MiB blocks) and an own-block
 * mismatch at most took the schedule's tag (the others hung, or with the
 * nonblocking forms waited for ever: MPICH errors/coll/allgatherlength
 * -nonblocking).  Blocking, nonblocking and persistent forms; small and
 * rendezvous-sized blocks; afterwards correct collectives must work.
 * On the blocking shm path the others read the failed rank's stale
 * buffer silently before the fix (MPICH errors/coll/allgatherlength);
 * now its numbers carry an "invalid" mark.
 */
#include "../mpitest.h"

#include <stdlib.h>
#include <string.h>

static int rank, size, bad;

static int is_err(int rc)
{
    int cls = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls == MPI_ERR_TRUNCATE || cls == MPI_ERR_COUNT ||
           cls == MPI_ERR_OTHER || cls == MPI_ERR_BUFFER;
}

enum { ALLTOALL, ALLGATHER, ALLGATHERV, NCOLL };
static const char *names[] = {"alltoall", "allgather", "allgatherv"};

/* One call of collective c in form f (0 blocking, 1 nonblocking, 2
 * persistent). */
static int call(int c, int f, const void *s, int sc, void *r, int rcnt,
                const int *rcounts, const int *displs)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    int rc;

    switch (c * 3 + f) {
    case 0: return MPI_Alltoall(s, sc, MPI_INT, r, rcnt, MPI_INT, w);
    case 1: rc = MPI_Ialltoall(s, sc, MPI_INT, r, rcnt, MPI_INT, w, &req); break;
    case 2: rc = MPI_Alltoall_init(s, sc, MPI_INT, r, rcnt, MPI_INT, w,
                                   MPI_INFO_NULL, &req); break;
    case 3: return MPI_Allgather(s, sc, MPI_INT, r, rcnt, MPI_INT, w);
    case 4: rc = MPI_Iallgather(s, sc, MPI_INT, r, rcnt, MPI_INT, w, &req); break;
    case 5: rc = MPI_Allgather_init(s, sc, MPI_INT, r, rcnt, MPI_INT, w,
                                    MPI_INFO_NULL, &req); break;
    case 6: return MPI_Allgatherv(s, sc, MPI_INT, r, rcounts, displs, MPI_INT, w);
    case 7: rc = MPI_Iallgatherv(s, sc, MPI_INT, r, rcounts, displs, MPI_INT,
                                 w, &req); break;
    default: rc = MPI_Allgatherv_init(s, sc, MPI_INT, r, rcounts, displs,
                                      MPI_INT, w, MPI_INFO_NULL, &req); break;
    }
    /* a failed init may still hand back a request that serves the others */
    if (f == 2 && req != MPI_REQUEST_NULL) {
        int rc2 = MPI_Start(&req);
        if (rc2 == MPI_SUCCESS)
            rc2 = MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Request_free(&req);
        return rc != MPI_SUCCESS ? rc : rc2;
    }
    if (rc == MPI_SUCCESS && req != MPI_REQUEST_NULL)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    return rc;
}

/* Correct calls of every collective in every form: results checked. */
static void check_usable(int cnt, int *s, int *r, int *rcounts, int *displs,
                         const char *after)
{
    for (int c = 0; c < NCOLL; c++)
        for (int f = 0; f < 3; f++) {
            size_t n = (size_t)cnt * (size_t)size;
            for (size_t j = 0; j < n; j++) {
                s[j] = rank * 1000 + (int)(j / (size_t)cnt);
                r[j] = -1;
            }
            if (c != ALLTOALL)
                for (int j = 0; j < cnt; j++)
                    s[j] = rank * 1000 + 7;
            MT_CHECK_RC(call(c, f, s, cnt, r, cnt, rcounts, displs));
            for (int p = 0; p < size; p++) {
                int want = c == ALLTOALL ? p * 1000 + rank : p * 1000 + 7;
                size_t at = (size_t)p * (size_t)cnt;
                MT_CHECK(r[at] == want && r[at + (size_t)cnt - 1] == want,
                         "after %s: %s form %d count %d: block %d = %d, "
                         "want %d", after, names[c], f, cnt, p, r[at], want);
            }
        }
}

int main(int argc, char **argv)
{
    static const int counts[] = {10, 262144};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bad = size > 1 ? 1 : 0;
    int *rcounts = malloc(sizeof(int) * (size_t)size);
    int *displs = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < 2; i++) {
        int cnt = counts[i];
        size_t n = (size_t)cnt * (size_t)size;
        /* room for the bad rank's one extra int per block, and for an
         * aliased send buffer inside the receive buffer */
        int *s = calloc(n + (size_t)size, sizeof(int));
        int *r = calloc(n + (size_t)size, sizeof(int));

        for (int p = 0; p < size; p++) {
            rcounts[p] = cnt;
            displs[p] = p * cnt;
        }
        for (int c = 0; c < NCOLL; c++)
            for (int f = 0; f < 3; f++)
                for (int how = 0; how < 2; how++) {
                    const int *sb = s;
                    int sc = cnt, rc;

                    if (rank == bad && how == 0)
                        sc = cnt + 1;         /* own block mismatch */
                    if (rank == bad && how == 1)
                        sb = r + 1;           /* overlaps the receive side */
                    for (size_t j = 0; j < n; j++)
                        r[j] = -1;
                    rc = call(c, f, sb, sc, r, cnt, rcounts, displs);
                    if (rank == bad)
                        MT_CHECK(is_err(rc), "%s form %d count %d how %d: "
                                 "the bad rank got rc %d", names[c], f, cnt,
                                 how, rc);
                    else
                        MT_CHECK(is_err(rc), "%s form %d count %d how %d: "
                                 "rank %d got rc %d, block from %d = %d",
                                 names[c], f, cnt, how, rank, rc, bad,
                                 r[(size_t)bad * (size_t)cnt]);
                }
        check_usable(cnt, s, r, rcounts, displs, "the errors");
        free(s);
        free(r);
    }
    free(rcounts);
    free(displs);
    return mt_finish();
}
