/* Intercommunicator gather(v), scatter(v), allgather(v), alltoall(v,w):
 * world split into even and odd ranks (groups of different sizes when
 * the job size is odd), every root of both groups, each call (v and w
 * forms too) blocking / nonblocking / persistent (started twice). */
#include "coll_xfer.h"

static int wrank, wsize, color, lrank, lsize, rsize;
static MPI_Comm ic;

/* value tagged with the sender's world rank */
static int gid(int group, int r) { return 2 * r + group; }

static void test_rooted(int count, int f)
{
    int *buf = xalloc(sizeof(int) * (size_t)count * (rsize > lsize ? rsize : lsize));
    MPI_Request req = MPI_REQUEST_NULL;

    for (int rg = 0; rg < 2; rg++)                 /* root's group */
        for (int root = 0; root < (rg == color ? lsize : rsize); root++) {
            int am_root_grp = rg == color, r_arg;
            r_arg = am_root_grp ? (lrank == root ? MPI_ROOT : MPI_PROC_NULL)
                                : root;
            int rootid = gid(rg, root);
            /* gather: non-root group sends count ints each */
            for (int g = 0; g < xreps(f); g++) {
                for (int i = 0; i < count * rsize; i++)
                    buf[i] = -1;
                if (!am_root_grp)
                    for (int i = 0; i < count; i++)
                        buf[i] = xv(gid(color, lrank), rootid, i, g);
                XRUN(f, g, req,
                     MPI_Gather(buf, count, MPI_INT, buf, count, MPI_INT,
                                r_arg, ic),
                     MPI_Igather(buf, count, MPI_INT, buf, count, MPI_INT,
                                 r_arg, ic, &req),
                     MPI_Gather_init(buf, count, MPI_INT, buf, count,
                                     MPI_INT, r_arg, ic, MPI_INFO_NULL,
                                     &req));
                if (r_arg == MPI_ROOT)
                    for (int s = 0; s < rsize; s++)
                        XCHECK_BLOCK(buf + s * count, count, 1,
                                     gid(!color, s), rootid, g,
                                     "inter gather");
            }
            xfree_req(f, &req);
            /* scatter: root sends block s to remote rank s */
            for (int g = 0; g < xreps(f); g++) {
                if (r_arg == MPI_ROOT)
                    for (int s = 0; s < rsize; s++)
                        for (int i = 0; i < count; i++)
                            buf[s * count + i] = xv(rootid, gid(!color, s), i,
                                                    g);
                else
                    for (int i = 0; i < count; i++)
                        buf[i] = -1;
                XRUN(f, g, req,
                     MPI_Scatter(buf, count, MPI_INT, buf, count, MPI_INT,
                                 r_arg, ic),
                     MPI_Iscatter(buf, count, MPI_INT, buf, count, MPI_INT,
                                  r_arg, ic, &req),
                     MPI_Scatter_init(buf, count, MPI_INT, buf, count,
                                      MPI_INT, r_arg, ic, MPI_INFO_NULL,
                                      &req));
                if (!am_root_grp)
                    XCHECK_BLOCK(buf, count, 1, rootid,
                                 gid(color, lrank), g, "inter scatter");
            }
            xfree_req(f, &req);
            /* gatherv / scatterv with counts s % 3 * count */
            int *cnt = xalloc(sizeof(int) * rsize), *dsp = xalloc(sizeof(int) * rsize), tot = 0;
            for (int s = rsize - 1; s >= 0; s--) {
                cnt[s] = s % 3 * count;
                dsp[s] = tot;
                tot += cnt[s];
            }
            int *vb = xalloc(sizeof(int) * (size_t)(tot + 3 * count + 1));
            int mine = lrank % 3 * count;
            for (int g = 0; g < xreps(f); g++) {
                for (int i = 0; i < mine; i++)
                    vb[i] = xv(gid(color, lrank), rootid, i, g);
                if (r_arg == MPI_ROOT)
                    for (int i = 0; i < tot; i++)
                        vb[i] = -1;
                XRUN(f, g, req,
                     MPI_Gatherv(vb, mine, MPI_INT, vb, cnt, dsp, MPI_INT,
                                 r_arg, ic),
                     MPI_Igatherv(vb, mine, MPI_INT, vb, cnt, dsp, MPI_INT,
                                  r_arg, ic, &req),
                     MPI_Gatherv_init(vb, mine, MPI_INT, vb, cnt, dsp,
                                      MPI_INT, r_arg, ic, MPI_INFO_NULL,
                                      &req));
                if (r_arg == MPI_ROOT)
                    for (int s = 0; s < rsize; s++)
                        XCHECK_BLOCK(vb + dsp[s], cnt[s], 1, gid(!color, s),
                                     rootid, g, "inter gatherv");
            }
            xfree_req(f, &req);
            for (int g = 0; g < xreps(f); g++) {
                if (r_arg == MPI_ROOT)
                    for (int s = 0; s < rsize; s++)
                        for (int i = 0; i < cnt[s]; i++)
                            vb[dsp[s] + i] = xv(rootid, gid(!color, s), i,
                                                g + 2);
                else
                    for (int i = 0; i < mine; i++)
                        vb[i] = -1;
                XRUN(f, g, req,
                     MPI_Scatterv(vb, cnt, dsp, MPI_INT, vb, mine, MPI_INT,
                                  r_arg, ic),
                     MPI_Iscatterv(vb, cnt, dsp, MPI_INT, vb, mine, MPI_INT,
                                   r_arg, ic, &req),
                     MPI_Scatterv_init(vb, cnt, dsp, MPI_INT, vb, mine,
                                       MPI_INT, r_arg, ic, MPI_INFO_NULL,
                                       &req));
                if (!am_root_grp)
                    XCHECK_BLOCK(vb, mine, 1, rootid, gid(color, lrank),
                                 g + 2, "inter scatterv");
            }
            xfree_req(f, &req);
            free(cnt), free(dsp), free(vb);
        }
    free(buf);
}

static void test_all(int count, int f)
{
    int *sb = xalloc(sizeof(int) * (size_t)count * (rsize + 3));
    int *rb = xalloc(sizeof(int) * (size_t)count * rsize);
    MPI_Request req = MPI_REQUEST_NULL;
    int me = gid(color, lrank);

    for (int g = 0; g < xreps(f); g++) {   /* allgather */
        for (int i = 0; i < count; i++)
            sb[i] = xv(me, 0, i, g);
        for (int i = 0; i < count * rsize; i++)
            rb[i] = -1;
        XRUN(f, g, req,
             MPI_Allgather(sb, count, MPI_INT, rb, count, MPI_INT, ic),
             MPI_Iallgather(sb, count, MPI_INT, rb, count, MPI_INT, ic, &req),
             MPI_Allgather_init(sb, count, MPI_INT, rb, count, MPI_INT, ic,
                                MPI_INFO_NULL, &req));
        for (int s = 0; s < rsize; s++)
            XCHECK_BLOCK(rb + s * count, count, 1, gid(!color, s), 0, g,
                         "inter allgather");
    }
    xfree_req(f, &req);
    for (int g = 0; g < xreps(f); g++) {   /* alltoall */
        for (int s = 0; s < rsize; s++)
            for (int i = 0; i < count; i++)
                sb[s * count + i] = xv(me, gid(!color, s), i, g);
        for (int i = 0; i < count * rsize; i++)
            rb[i] = -1;
        XRUN(f, g, req,
             MPI_Alltoall(sb, count, MPI_INT, rb, count, MPI_INT, ic),
             MPI_Ialltoall(sb, count, MPI_INT, rb, count, MPI_INT, ic, &req),
             MPI_Alltoall_init(sb, count, MPI_INT, rb, count, MPI_INT, ic,
                               MPI_INFO_NULL, &req));
        for (int s = 0; s < rsize; s++)
            XCHECK_BLOCK(rb + s * count, count, 1, gid(!color, s), me, g,
                         "inter alltoall");
    }
    xfree_req(f, &req);
    /* allgatherv and alltoallv/w with counts depending on the pair */
    int *rc = xalloc(sizeof(int) * rsize), *rd = xalloc(sizeof(int) * rsize);
    int *sc = xalloc(sizeof(int) * rsize), *sd = xalloc(sizeof(int) * rsize);
    int *sdb = xalloc(sizeof(int) * rsize), *rdb = xalloc(sizeof(int) * rsize);
    MPI_Datatype *ty = xalloc(sizeof(MPI_Datatype) * rsize);
    int rt = 0, st = 0, mine = (me % 3) * count;
    for (int s = 0; s < rsize; s++) {
        rc[s] = (gid(!color, s) % 3) * count;
        rd[s] = rt;
        rt += rc[s];
    }
    free(rb);
    rb = xalloc(sizeof(int) * (size_t)(rt + 3 * count * rsize + 1));
    for (int g = 0; g < xreps(f); g++) {
        for (int i = 0; i < mine; i++)
            sb[i] = xv(me, 0, i, g + 2);
        for (int i = 0; i < rt; i++)
            rb[i] = -1;
        XRUN(f, g, req,
             MPI_Allgatherv(sb, mine, MPI_INT, rb, rc, rd, MPI_INT, ic),
             MPI_Iallgatherv(sb, mine, MPI_INT, rb, rc, rd, MPI_INT, ic, &req),
             MPI_Allgatherv_init(sb, mine, MPI_INT, rb, rc, rd, MPI_INT, ic,
                                 MPI_INFO_NULL, &req));
        for (int s = 0; s < rsize; s++)
            XCHECK_BLOCK(rb + rd[s], rc[s], 1, gid(!color, s), 0, g + 2,
                         "inter allgatherv");
    }
    xfree_req(f, &req);
    rt = 0;
    for (int s = 0; s < rsize; s++) {
        int peer = gid(!color, s);
        sc[s] = (me + peer) % 3 * count;
        sd[s] = st;
        st += sc[s];
        rc[s] = sc[s];
        rd[s] = rt;
        rt += rc[s];
        sdb[s] = sd[s] * (int)sizeof(int);
        rdb[s] = rd[s] * (int)sizeof(int);
        ty[s] = MPI_INT;
    }
    free(sb);
    sb = xalloc(sizeof(int) * (size_t)(st + 1));
    for (int w = 0; w < 2; w++) {
        for (int g = 0; g < xreps(f); g++) {
            for (int s = 0; s < rsize; s++)
                for (int i = 0; i < sc[s]; i++)
                    sb[sd[s] + i] = xv(me, gid(!color, s), i, 2 * w + g);
            for (int i = 0; i < rt; i++)
                rb[i] = -1;
            if (w)
                XRUN(f, g, req,
                     MPI_Alltoallw(sb, sc, sdb, ty, rb, rc, rdb, ty, ic),
                     MPI_Ialltoallw(sb, sc, sdb, ty, rb, rc, rdb, ty, ic, &req),
                     MPI_Alltoallw_init(sb, sc, sdb, ty, rb, rc, rdb, ty, ic,
                                        MPI_INFO_NULL, &req));
            else
                XRUN(f, g, req,
                     MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, ic),
                     MPI_Ialltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT,
                                    ic, &req),
                     MPI_Alltoallv_init(sb, sc, sd, MPI_INT, rb, rc, rd,
                                        MPI_INT, ic, MPI_INFO_NULL, &req));
            for (int s = 0; s < rsize; s++)
                XCHECK_BLOCK(rb + rd[s], rc[s], 1, gid(!color, s), me,
                             2 * w + g, "inter alltoallv/w");
        }
        xfree_req(f, &req);
    }
    free(sb), free(rb), free(rc), free(rd), free(sc), free(sd), free(sdb),
        free(rdb), free(ty);
}

int main(int argc, char **argv)
{
    MPI_Comm local;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2)
        return mt_finish();
    color = wrank % 2;
    MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local));
    MT_CHECK_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, !color, 77,
                                     &ic));
    MPI_Comm_rank(ic, &lrank);
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    for (int f = 0; f < F_NFORMS; f++) {
        test_rooted(0, f);
        test_rooted(3, f);
        test_all(0, f);
        test_all(4, f);
    }
    test_rooted(40000, F_BLOCKING);
    test_all(40000, F_NONBLOCKING);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    return mt_finish();
}
