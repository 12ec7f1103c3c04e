/*
 * A non-root whose own count or type fails a check (negative
 * count, MPI_DATATYPE_NULL) in a rooted collective must still take part,
 * also where it sits inside a tree (binomial gather/scatter/reduce,
 * gatherv/scatterv trees) and its message sizes depend on sizes only the
 * others know.  It reports its own error class; the root of a gather(v)
 * or reduce reports an error; a rank that returns success has the right
 * data; nobody hangs; the communicator stays usable.  Every rank fails
 * in turn (the root too: its own count or type, the other side fine),
 * for roots 0 and size-1, blocking and nonblocking, with
 * small blocks and blocks past the rendezvous threshold.  XTEST_COLLS
 * picks the collectives (default all: gather,gatherv,scatter,scatterv,
 * reduce).  Where the algorithm the others run depends on the block size
 * (automatic gather/scatter from 5 ranks, automatic p2p reduce) the
 * failing rank cannot know it: coll.list runs those with the algorithm
 * forced.  Before the fix the failing rank skipped the call:
 * its parent, and so the root, waited for ever.
 */
#include "../mpitest.h"

#include <string.h>

enum { SMALL = 3, BIG = 4096 };   /* ints per block */

static int rank, size;

static int err_class(int rc)
{
    int cls = MPI_SUCCESS;

    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static int finish(int rc, int nb, MPI_Request *rq)
{
    if (nb && rc == MPI_SUCCESS)
        rc = MPI_Wait(rq, MPI_STATUS_IGNORE);
    return rc;
}

/* Correct collectives after the failed one: results checked. */
static void check_usable(const char *after, int root, int *s, int *g)
{
    int r[SMALL], cnt[64], dis[64];

    for (int i = 0; i < SMALL; i++)
        s[i] = rank * 10 + i;
    MT_CHECK_RC(MPI_Allreduce(s, r, SMALL, MPI_INT, MPI_SUM,
                              MPI_COMM_WORLD));
    for (int i = 0; i < SMALL; i++)
        MT_CHECK(r[i] == 10 * size * (size - 1) / 2 + size * i,
                 "after %s root %d: allreduce [%d] = %d", after, root, i,
                 r[i]);
    MT_CHECK_RC(MPI_Gather(s, SMALL, MPI_INT, g, SMALL, MPI_INT, root,
                           MPI_COMM_WORLD));
    for (int i = 0; i < size * SMALL && rank == root; i++)
        MT_CHECK(g[i] == (i / SMALL) * 10 + i % SMALL, "after %s root %d: "
                 "gather [%d] = %d", after, root, i, g[i]);
    for (int i = 0; i < size; i++) {
        cnt[i] = SMALL;
        dis[i] = SMALL * i;
    }
    MT_CHECK_RC(MPI_Scatterv(g, cnt, dis, MPI_INT, r, SMALL, MPI_INT, root,
                             MPI_COMM_WORLD));
    for (int i = 0; i < SMALL; i++)
        MT_CHECK(r[i] == rank * 10 + i, "after %s root %d: scatterv [%d] = "
                 "%d", after, root, i, r[i]);
}

static int want(const char *coll)
{
    const char *e = getenv("XTEST_COLLS");
    char list[128], item[32];

    if (e == NULL)
        return 1;
    snprintf(list, sizeof(list), ",%s,", e);
    snprintf(item, sizeof(item), ",%s,", coll);
    return strstr(list, item) != NULL;
}

int main(int argc, char **argv)
{
    int *s, *r, *g, cnt[64], dis[64];
    MPI_Request rq;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64) {
        fprintf(stderr, "at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    s = malloc(sizeof(int) * BIG);
    r = malloc(sizeof(int) * BIG);
    g = malloc(sizeof(int) * BIG * (size_t)size);
    for (int ri = 0; ri < 2 && size > 1; ri++) {
        int root = ri ? size - 1 : 0;
        for (int bad = 0; bad < size; bad++) {
            for (int c = 0; c < 8; c++) {
                int nb = c & 1, n = c & 2 ? BIG : SMALL, kind = c >> 2;
                int me = rank == bad;
                /* kind 0: a null type, 1: a negative count */
                MPI_Datatype dt = me && !kind ? MPI_DATATYPE_NULL : MPI_INT;
                int k = me && kind ? -1 : n;
                int want_cls = kind ? MPI_ERR_COUNT : MPI_ERR_TYPE, rc;
                char what[96];

                for (int i = 0; i < size; i++) {
                    cnt[i] = n;
                    dis[i] = n * i;
                }
                for (int i = 0; i < n; i++)
                    s[i] = rank * 100000 + i;
                for (int i = 0; i < n * size; i++)
                    g[i] = i;
                if (want("gather")) {
                    snprintf(what, sizeof(what), "gather n %d nb %d kind %d "
                             "root %d bad %d", n, nb, kind, root, bad);
                    rc = nb ? MPI_Igather(s, k, dt, g, n, MPI_INT, root,
                                          MPI_COMM_WORLD, &rq)
                            : MPI_Gather(s, k, dt, g, n, MPI_INT, root,
                                         MPI_COMM_WORLD);
                    rc = finish(rc, nb, &rq);
                    if (me)
                        MT_CHECK(err_class(rc) == want_cls, "%s: bad rank "
                                 "class %d", what, err_class(rc));
                    if (rank == root && !me)
                        MT_CHECK(rc != MPI_SUCCESS, "%s: root succeeded",
                                 what);
                    check_usable(what, root, s, g);
                }
                if (want("gatherv")) {
                    for (int i = 0; i < n; i++)
                        s[i] = rank * 100000 + i;
                    snprintf(what, sizeof(what), "gatherv n %d nb %d kind %d "
                             "root %d bad %d", n, nb, kind, root, bad);
                    rc = nb ? MPI_Igatherv(s, k, dt, g, cnt, dis, MPI_INT,
                                           root, MPI_COMM_WORLD, &rq)
                            : MPI_Gatherv(s, k, dt, g, cnt, dis, MPI_INT,
                                          root, MPI_COMM_WORLD);
                    rc = finish(rc, nb, &rq);
                    if (me)
                        MT_CHECK(err_class(rc) == want_cls, "%s: bad rank "
                                 "class %d", what, err_class(rc));
                    if (rank == root && !me)
                        MT_CHECK(rc != MPI_SUCCESS, "%s: root succeeded",
                                 what);
                    check_usable(what, root, s, g);
                }
                for (int v = 0; v < 2; v++) {
                    if (!want(v ? "scatterv" : "scatter"))
                        continue;
                    for (int i = 0; i < n * size; i++)
                        g[i] = 7 * i + 1;
                    for (int i = 0; i < n; i++)
                        r[i] = -1;
                    snprintf(what, sizeof(what), "scatter%s n %d nb %d kind "
                             "%d root %d bad %d", v ? "v" : "", n, nb, kind,
                             root, bad);
                    if (v)
                        rc = nb ? MPI_Iscatterv(g, cnt, dis, MPI_INT, r, k,
                                                dt, root, MPI_COMM_WORLD,
                                                &rq)
                                : MPI_Scatterv(g, cnt, dis, MPI_INT, r, k,
                                               dt, root, MPI_COMM_WORLD);
                    else
                        rc = nb ? MPI_Iscatter(g, n, MPI_INT, r, k, dt, root,
                                               MPI_COMM_WORLD, &rq)
                                : MPI_Scatter(g, n, MPI_INT, r, k, dt, root,
                                              MPI_COMM_WORLD);
                    rc = finish(rc, nb, &rq);
                    if (me)
                        MT_CHECK(err_class(rc) == want_cls, "%s: bad rank "
                                 "class %d", what, err_class(rc));
                    for (int i = 0; i < n && !me && rc == MPI_SUCCESS; i++)
                        if (r[i] != 7 * (n * rank + i) + 1) {
                            MT_CHECK(0, "%s: success with [%d] = %d", what,
                                     i, r[i]);
                            break;
                        }
                    check_usable(what, root, s, g);
                }
                if (want("reduce")) {
                    snprintf(what, sizeof(what), "reduce n %d nb %d kind %d "
                             "root %d bad %d", n, nb, kind, root, bad);
                    rc = nb ? MPI_Ireduce(s, r, k, dt, MPI_SUM, root,
                                          MPI_COMM_WORLD, &rq)
                            : MPI_Reduce(s, r, k, dt, MPI_SUM, root,
                                         MPI_COMM_WORLD);
                    rc = finish(rc, nb, &rq);
                    if (me)
                        MT_CHECK(err_class(rc) == want_cls, "%s: bad rank "
                                 "class %d", what, err_class(rc));
                    if (rank == root && !me)
                        MT_CHECK(rc != MPI_SUCCESS, "%s: root succeeded",
                                 what);
                    check_usable(what, root, s, g);
                }
            }
        }
    }
    free(s);
    free(r);
    free(g);
    return mt_finish();
}
