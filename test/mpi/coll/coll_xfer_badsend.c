/*
 * A rank whose SEND arguments fail a check in
 * allgather(v) or alltoall(v,w) (a negative send count, MPI_DATATYPE_NULL
 * as the send type, or, for the v/w forms, its own block's send and
 * receive sizes differing) gets that error, and the others, which went
 * ahead, get an error too: never a hang, never success with a stale
 * block.  Before the fix allgatherv only took the
 * schedule's tag (the others hung) and alltoallv/w returned at once (the
 * others hung).  Run also with the shm set-up failing on the bad rank
 * (UCMPI_COLL_SHM_FAIL_RANK: the blocking calls fall back to p2p).
 * Blocking, nonblocking and persistent forms; small and rendezvous-sized
 * blocks; afterwards correct calls of each collective must work.
 */
#include "../mpitest.h"

#include <stdlib.h>
#include <string.h>

static int rank, size, bad;

static int cls_of(int rc)
{
    int cls = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

/* what the others may report */
static int other_err(int rc)
{
    int cls = cls_of(rc);

    return cls == MPI_ERR_TRUNCATE || cls == MPI_ERR_OTHER ||
           cls == MPI_ERR_COUNT;
}

enum { ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW, NCOLL };
static const char *names[] = {"allgather", "allgatherv", "alltoall",
                              "alltoallv", "alltoallw"};
enum { NEG_COUNT, NULL_TYPE, OWN_BLOCK, NHOW };
static const char *hows[] = {"negative send count", "null send type",
                             "own block mismatch"};

/* Arguments of one call: uniform (sc, st, rc) and per-peer arrays. */
typedef struct {
    int *sc, *sd, *rcs, *rd, *wsd, *wrd;
    MPI_Datatype *sts, *rts;
} arrays_t;

static int start(int c, int f, const void *s, int sc, MPI_Datatype st,
                 void *r, int rcnt, const arrays_t *v, MPI_Request *req)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info i = MPI_INFO_NULL;

    switch (c * 3 + f) {
    case 0: return MPI_Allgather(s, sc, st, r, rcnt, MPI_INT, w);
    case 1: return MPI_Iallgather(s, sc, st, r, rcnt, MPI_INT, w, req);
    case 2: return MPI_Allgather_init(s, sc, st, r, rcnt, MPI_INT, w, i, req);
    case 3: return MPI_Allgatherv(s, sc, st, r, v->rcs, v->rd, MPI_INT, w);
    case 4: return MPI_Iallgatherv(s, sc, st, r, v->rcs, v->rd, MPI_INT, w,
                                   req);
    case 5: return MPI_Allgatherv_init(s, sc, st, r, v->rcs, v->rd, MPI_INT,
                                       w, i, req);
    case 6: return MPI_Alltoall(s, sc, st, r, rcnt, MPI_INT, w);
    case 7: return MPI_Ialltoall(s, sc, st, r, rcnt, MPI_INT, w, req);
    case 8: return MPI_Alltoall_init(s, sc, st, r, rcnt, MPI_INT, w, i, req);
    case 9: return MPI_Alltoallv(s, v->sc, v->sd, st, r, v->rcs, v->rd,
                                 MPI_INT, w);
    case 10: return MPI_Ialltoallv(s, v->sc, v->sd, st, r, v->rcs, v->rd,
                                   MPI_INT, w, req);
    case 11: return MPI_Alltoallv_init(s, v->sc, v->sd, st, r, v->rcs, v->rd,
                                       MPI_INT, w, i, req);
    case 12: return MPI_Alltoallw(s, v->sc, v->wsd, v->sts, r, v->rcs,
                                  v->wrd, v->rts, w);
    case 13: return MPI_Ialltoallw(s, v->sc, v->wsd, v->sts, r, v->rcs,
                                   v->wrd, v->rts, w, req);
    default: return MPI_Alltoallw_init(s, v->sc, v->wsd, v->sts, r, v->rcs,
                                       v->wrd, v->rts, w, i, req);
    }
}

/* One call of collective c in form f (0 blocking, 1 nonblocking, 2
 * persistent), waited for. */
static int call(int c, int f, const void *s, int sc, MPI_Datatype st,
                void *r, int rcnt, const arrays_t *v)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = start(c, f, s, sc, st, r, rcnt, v, &req);

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

static void fill(int c, int cnt, int *s, int *r)
{
    size_t n = (size_t)cnt * (size_t)size;

    for (size_t j = 0; j < n; j++) {
        s[j] = c >= ALLTOALL ? rank * 1000 + (int)(j / (size_t)cnt)
                             : rank * 1000 + 7;
        r[j] = -1;
    }
}

static void set_arrays(arrays_t *v, int cnt)
{
    for (int p = 0; p < size; p++) {
        v->sc[p] = v->rcs[p] = cnt;
        v->sd[p] = v->rd[p] = p * cnt;
        v->wsd[p] = v->wrd[p] = p * cnt * (int)sizeof(int);
        v->sts[p] = v->rts[p] = MPI_INT;
    }
}

/* Correct calls of every collective in every form: results checked. */
static void check_usable(int cnt, int *s, int *r, arrays_t *v,
                         const char *after)
{
    set_arrays(v, cnt);
    for (int c = 0; c < NCOLL; c++)
        for (int f = 0; f < 3; f++) {
            fill(c, cnt, s, r);
            int rc = call(c, f, s, cnt, MPI_INT, r, cnt, v);
            MT_CHECK_RC(rc);
            for (int p = 0; p < size; p++) {
                int want = c >= ALLTOALL ? p * 1000 + rank : p * 1000 + 7;
                size_t at = (size_t)p * (size_t)cnt;
                MT_CHECK(r[at] == want && r[at + (size_t)cnt - 1] == want,
                         "after %s: %s form %d count %d: block %d = %d, "
                         "want %d", after, names[c], f, cnt, p, r[at], want);
            }
        }
}

int main(int argc, char **argv)
{
    static const int counts[] = {10, 65536};
    arrays_t v;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bad = size > 1 ? 1 : 0;
    int **ia[] = {&v.sc, &v.sd, &v.rcs, &v.rd, &v.wsd, &v.wrd};
    for (size_t i = 0; i < sizeof(ia) / sizeof(ia[0]); i++)
        *ia[i] = malloc(sizeof(int) * (size_t)size);
    v.sts = malloc(sizeof(MPI_Datatype) * (size_t)size);
    v.rts = malloc(sizeof(MPI_Datatype) * (size_t)size);
    for (int i = 0; i < 2; i++) {
        int cnt = counts[i];
        size_t n = (size_t)cnt * (size_t)size;
        int *s = calloc(n + 1, sizeof(int));
        int *r = calloc(n + 1, sizeof(int));

        for (int c = 0; c < NCOLL; c++)
            for (int f = 0; f < 3; f++)
                for (int how = 0; how < NHOW; how++) {
                    MPI_Datatype st = MPI_INT;
                    int sc = cnt, rc, want;

                    /* the uniform forms' own-block case is coll_xfer_failed */
                    if (how == OWN_BLOCK && c != ALLTOALLV && c != ALLTOALLW)
                        continue;
                    set_arrays(&v, cnt);
                    fill(c, cnt, s, r);
                    if (rank == bad && how == NEG_COUNT) {
                        sc = -1;
                        v.sc[0] = -1;
                    }
                    if (rank == bad && how == NULL_TYPE) {
                        st = MPI_DATATYPE_NULL;
                        v.sts[0] = MPI_DATATYPE_NULL;
                    }
                    if (rank == bad && how == OWN_BLOCK)
                        v.sc[rank] = cnt + 1;
                    rc = call(c, f, s, sc, st, r, cnt, &v);
                    want = how == NEG_COUNT ? MPI_ERR_COUNT
                           : how == NULL_TYPE ? MPI_ERR_TYPE
                                              : MPI_ERR_TRUNCATE;
                    if (rank == bad)
                        MT_CHECK(cls_of(rc) == want, "%s form %d count %d "
                                 "(%s): the bad rank got class %d, want %d",
                                 names[c], f, cnt, hows[how], cls_of(rc),
                                 want);
                    else
                        MT_CHECK(other_err(rc), "%s form %d count %d (%s): "
                                 "rank %d got class %d, block from %d = %d",
                                 names[c], f, cnt, hows[how], rank,
                                 cls_of(rc), bad,
                                 r[(size_t)bad * (size_t)cnt]);
                }
        check_usable(cnt, s, r, &v, "the errors");
        free(s);
        free(r);
    }
    for (size_t i = 0; i < sizeof(ia) / sizeof(ia[0]); i++)
        free(*ia[i]);
    free(v.sts);
    free(v.rts);
    return mt_finish();
}
