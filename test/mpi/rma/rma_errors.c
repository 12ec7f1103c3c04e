/*
 * Bad input with MPI_ERRORS_RETURN: out-of-window accesses (and nothing
 * written outside), calls outside epochs, mismatched lock/unlock, bad
 * assertions, lock types, ranks and windows; plus window names, groups,
 * attributes, info and user error handlers.
 */
#include "../mpitest.h"

#include <string.h>

static int handler_calls, handler_code;

static void win_handler(MPI_Win *win, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    (void)win;
}

static int cls(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

#define EXPECT(call, want)                                                \
    do {                                                                  \
        int rc_ = (call);                                                 \
        MT_CHECK(cls(rc_) == (want), "%s gave %d, want %s", #call, rc_,   \
                 #want);                                                  \
    } while (0)

int main(int argc, char **argv)
{
    int rank, size, one = 1;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* window over the first 8 ints of 16; the rest are sentinels */
    int mem[16];
    for (int i = 0; i < 16; i++)
        mem[i] = -7;
    MT_CHECK_RC(MPI_Win_create(mem, 8 * sizeof(int), sizeof(int),
                               MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    /* MPI-4.1 12.6.1: a window's default handler is MPI_ERRORS_ARE_FATAL,
     * whatever the communicator's handler is */
    MPI_Errhandler dflt;
    MT_CHECK_RC(MPI_Win_get_errhandler(win, &dflt));
    MT_CHECK(dflt == MPI_ERRORS_ARE_FATAL, "default window handler %p",
             (void *)dflt);
    MPI_Errhandler_free(&dflt);
    MT_CHECK_RC(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int right = (rank + 1) % size, v4[4] = {1, 2, 3, 4};

    /* outside any epoch */
    EXPECT(MPI_Put(&one, 1, MPI_INT, right, 0, 1, MPI_INT, win),
           MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Accumulate(&one, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM,
                          win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC);

    /* bad arguments */
    EXPECT(MPI_Win_fence(0x12345, win), MPI_ERR_ASSERT);
    EXPECT(MPI_Win_lock(99, right, 0, win), MPI_ERR_LOCKTYPE);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, right, MPI_MODE_NOPUT, win),
           MPI_ERR_ASSERT);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK);
    EXPECT(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    EXPECT(MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL),
           MPI_ERR_WIN);

    /* inside a lock epoch */
    MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Put(v4, 4, MPI_INT, right, 6, 4, MPI_INT, win),
           MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Put(v4, 1, MPI_INT, right, 8, 1, MPI_INT, win),
           MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Put(v4, 1, MPI_INT, right, -1, 1, MPI_INT, win),
           MPI_ERR_DISP);
    EXPECT(MPI_Get(v4, 9, MPI_INT, right, 0, 9, MPI_INT, win),
           MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Accumulate(v4, 2, MPI_INT, right, 7, 2, MPI_INT, MPI_SUM,
                          win), MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Put(v4, 1, MPI_INT, size + 1, 0, 1, MPI_INT, win),
           MPI_ERR_RANK);
    EXPECT(MPI_Put(v4, 2, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    EXPECT(MPI_Put(v4, -1, MPI_INT, right, 0, 1, MPI_INT, win),
           MPI_ERR_COUNT);
    EXPECT(MPI_Accumulate(v4, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_OP_NULL,
                          win), MPI_ERR_OP);
    /* a valid one still works after all that */
    MT_CHECK_RC(MPI_Put(v4, 4, MPI_INT, right, 4, 4, MPI_INT, win));
    MT_CHECK_RC(MPI_Put(v4, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    MT_CHECK_RC(MPI_Win_unlock(right, win));
    EXPECT(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);

    /* request-based calls need a passive-target epoch */
    MPI_Request rq;
    MT_CHECK_RC(MPI_Win_fence(0, win));
    MT_CHECK_RC(MPI_Put(v4, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    EXPECT(MPI_Rput(v4, 1, MPI_INT, right, 0, 1, MPI_INT, win, &rq),
           MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
    MT_CHECK_RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 8; i < 16; i++)
        MT_CHECK(mem[i] == -7, "sentinel %d overwritten: %d", i, mem[i]);
    MT_CHECK(mem[4] == 1 && mem[7] == 4, "valid put lost: %d %d", mem[4],
             mem[7]);

    /* names, group, attributes, info */
    char name[MPI_MAX_OBJECT_NAME];
    int len, flag;
    MT_CHECK_RC(MPI_Win_set_name(win, "weights"));
    MT_CHECK_RC(MPI_Win_get_name(win, name, &len));
    MT_CHECK(strcmp(name, "weights") == 0 && len == 7, "name %s", name);
    MPI_Group g, wg;
    int res;
    MT_CHECK_RC(MPI_Win_get_group(win, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &res);
    MT_CHECK(res == MPI_IDENT, "window group compare %d", res);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    void *base;
    MPI_Aint *wsize;
    int *du, *flavor, *model;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    MT_CHECK(flag && base == mem, "MPI_WIN_BASE %p", base);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag);
    MT_CHECK(flag && *wsize == 8 * sizeof(int), "MPI_WIN_SIZE");
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag);
    MT_CHECK(flag && *du == sizeof(int), "MPI_WIN_DISP_UNIT");
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    MT_CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE, "flavor");
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    MT_CHECK(flag && *model == MPI_WIN_UNIFIED, "model");
    MPI_Info info;
    char val[MPI_MAX_INFO_VAL];
    MT_CHECK_RC(MPI_Win_get_info(win, &info));
    MPI_Info_get(info, "no_locks", MPI_MAX_INFO_VAL, val, &flag);
    MT_CHECK(flag && strcmp(val, "false") == 0, "no_locks %s", val);
    MPI_Info_free(&info);

    /* Compare_and_swap types: integer, logical, multi-language, byte (and
     * MPI_CHAR, as MPICH) are fine; floating point and derived types give
     * MPI_ERR_TYPE.  MPI_CHAR also accumulates, as a C char. */
    {
        double d = 1.0, dc = 0.0, dr;
        int i0 = 0, ir = -1;
        char c = 3, cc = 0, cr;
        MPI_Datatype my_int;
        MPI_Type_contiguous(sizeof(int), MPI_BYTE, &my_int);
        MPI_Type_commit(&my_int);
        MT_CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        EXPECT(MPI_Compare_and_swap(&d, &dc, &dr, MPI_DOUBLE, rank, 0, win),
               MPI_ERR_TYPE);
        EXPECT(MPI_Compare_and_swap(&d, &dc, &dr, MPI_FLOAT, rank, 0, win),
               MPI_ERR_TYPE);
        EXPECT(MPI_Compare_and_swap(&i0, &i0, &ir, my_int, rank, 0, win),
               MPI_ERR_TYPE);
        mem[0] = 0;
        EXPECT(MPI_Compare_and_swap(&c, &cc, &cr, MPI_CHAR, rank, 0, win),
               MPI_SUCCESS);
        EXPECT(MPI_Compare_and_swap(&c, &cc, &cr, MPI_BYTE, rank, 0, win),
               MPI_SUCCESS);
        MPI_Aint a0 = 0, ar = -1;
        EXPECT(MPI_Compare_and_swap(&a0, &a0, &ar, MPI_AINT, rank, 1, win),
               MPI_SUCCESS);
        EXPECT(MPI_Accumulate(&c, 1, MPI_CHAR, rank, 0, 1, MPI_CHAR, MPI_SUM,
                              win), MPI_SUCCESS);
        MT_CHECK_RC(MPI_Win_unlock(rank, win));
        MT_CHECK(cr == 3 && ((char *)mem)[0] == 6,
                 "CAS/accumulate on MPI_CHAR: result %d memory %d", cr,
                 ((char *)mem)[0]);
        MPI_Type_free(&my_int);
    }

    /* user error handler */
    MPI_Errhandler eh, got;
    MT_CHECK_RC(MPI_Win_create_errhandler(win_handler, &eh));
    MT_CHECK_RC(MPI_Win_set_errhandler(win, eh));
    MT_CHECK_RC(MPI_Win_get_errhandler(win, &got));
    MT_CHECK(got == eh, "get_errhandler returned another handler");
    MPI_Errhandler_free(&got);
    MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    MT_CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER,
             "handler calls %d code %d", handler_calls, handler_code);
    MPI_Put(&one, 1, MPI_INT, right, 0, 1, MPI_INT, win);   /* no epoch */
    MT_CHECK(handler_calls == 2 && cls(handler_code) == MPI_ERR_RMA_SYNC,
             "handler after bad put: calls %d code %d", handler_calls,
             handler_code);
    MPI_Errhandler_free(&eh);
    MT_CHECK_RC(MPI_Win_free(&win));
    EXPECT(MPI_Win_free(&win), MPI_ERR_WIN);
    return mt_finish();
}
