/* Partitioned point-to-point: each rank sends to the next one in a ring
 * and receives from the previous one (itself at 1 rank), with differing
 * partition counts, out-of-order Pready, Parrived polling, several rounds,
 * init-order matching, non-contiguous types, receives started before the
 * sender's init, MPI_PROC_NULL, and argument errors. */
#include "../mpitest.h"
#include <string.h>

static int rank, size, next, prev;

static double val(int i, int iter, int salt)
{
    return (double)i + 1000.0 * iter + 1e6 * salt;
}

/* n doubles, sender split in sp partitions, receiver in rp. */
static void rounds(int n, int sp, int rp, int iters, int use_list)
{
    double *sbuf = malloc(sizeof(double) * (size_t)n);
    double *rbuf = malloc(sizeof(double) * (size_t)n);
    MPI_Request req[2];

    MPI_Precv_init(rbuf, rp, n / rp, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &req[0]);
    MPI_Psend_init(sbuf, sp, n / sp, MPI_DOUBLE, next, 5, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &req[1]);
    for (int iter = 0; iter < iters; iter++) {
        memset(rbuf, 0, sizeof(double) * (size_t)n);
        MPI_Startall(2, req);
        for (int p = sp - 1; p >= 0; p--) {      /* last partition first */
            for (int i = p * (n / sp); i < (p + 1) * (n / sp); i++)
                sbuf[i] = val(i, iter, rank);
            if (use_list) {
                MPI_Pready_list(1, &p, req[1]);
            } else if (p % 2 == 1 && p > 0) {
                for (int i = (p - 1) * (n / sp); i < p * (n / sp); i++)
                    sbuf[i] = val(i, iter, rank);
                MPI_Pready_range(p - 1, p, req[1]);
                p--;
            } else {
                MPI_Pready(p, req[1]);
            }
        }
        for (int p = 0; p < rp; p++) {
            int flag = 0;
            while (!flag)
                MPI_Parrived(req[0], p, &flag);
            for (int i = p * (n / rp); i < (p + 1) * (n / rp); i++)
                MT_CHECK(rbuf[i] == val(i, iter, prev), "n=%d sp=%d rp=%d "
                         "iter %d rbuf[%d]=%g", n, sp, rp, iter, i, rbuf[i]);
        }
        int flag = 0;
        MPI_Status st;
        MPI_Test(&req[0], &flag, &st);
        MT_CHECK(flag, "all partitions arrived but the request is pending");
        if (!flag)
            MPI_Wait(&req[0], &st);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        int count = -1;
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        MT_CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 5 && count == n,
                 "status source %d tag %d count %d", st.MPI_SOURCE,
                 st.MPI_TAG, count);
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    free(sbuf);
    free(rbuf);
}

/* Two pairs with the same envelope match in init order. */
static void init_order(void)
{
    int s[2] = {rank * 10 + 1, rank * 10 + 2}, r[2] = {-1, -1};
    MPI_Request req[4];

    MPI_Psend_init(&s[0], 1, 1, MPI_INT, next, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &req[0]);
    MPI_Psend_init(&s[1], 1, 1, MPI_INT, next, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &req[1]);
    MPI_Precv_init(&r[0], 1, 1, MPI_INT, prev, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &req[2]);
    MPI_Precv_init(&r[1], 1, 1, MPI_INT, prev, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &req[3]);
    /* start and ready the second pair first */
    MPI_Start(&req[3]);
    MPI_Start(&req[1]);
    MPI_Pready(0, req[1]);
    MPI_Start(&req[2]);
    MPI_Start(&req[0]);
    MPI_Pready(0, req[0]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    MT_CHECK(r[0] == prev * 10 + 1 && r[1] == prev * 10 + 2,
             "init order: got %d %d", r[0], r[1]);
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&req[i]);
}

/* Vector send type (extent 3 ints), contiguous receive; a receive started before the
 * sender's init exists; init and free without start. */
static void late_sender_vector(void)
{
    int sbuf[16], rbuf[8];
    MPI_Datatype vec;
    MPI_Request rr, sr, idle_s, idle_r;

    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 16; i++)
        sbuf[i] = rank * 100 + i;
    MPI_Precv_init(rbuf, 2, 4, MPI_INT, prev, 9, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &rr);
    MPI_Start(&rr);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Psend_init(sbuf, 4, 1, vec, next, 9, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &sr);
    MPI_Start(&sr);
    MPI_Pready_range(0, 3, sr);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    for (int i = 0; i < 8; i++)
        MT_CHECK(rbuf[i] == prev * 100 + 3 * (i / 2) + 2 * (i % 2), "vector rbuf[%d]=%d", i,
                 rbuf[i]);
    MPI_Request_free(&rr);
    MPI_Request_free(&sr);
    MPI_Type_free(&vec);

    MPI_Psend_init(sbuf, 1, 1, MPI_INT, next, 11, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &idle_s);
    MPI_Precv_init(rbuf, 1, 1, MPI_INT, prev, 11, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &idle_r);
    MPI_Request_free(&idle_s);
    MPI_Request_free(&idle_r);
}

static void proc_null(void)
{
    int x = 1, flag = 0;
    MPI_Request s, r;
    MPI_Status st;

    MPI_Psend_init(&x, 2, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &s);
    MPI_Precv_init(&x, 2, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &r);
    MPI_Start(&s);
    MPI_Start(&r);
    MPI_Pready_range(0, 1, s);
    MPI_Parrived(r, 1, &flag);
    MT_CHECK(flag, "PROC_NULL partition not arrived");
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Wait(&r, &st);
    MT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL status source %d",
             st.MPI_SOURCE);
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

static void errors(void)
{
    int x[4] = {0}, flag, ec, list[2] = {1, 1};
    MPI_Request s, r;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Psend_init(x, 4, 1, MPI_INT, next, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &s);
    MPI_Precv_init(x, 4, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &r);
#define EXPECT(call, cls)                                                 \
    do {                                                                  \
        int rc_ = (call);                                                 \
        MPI_Error_class(rc_, &ec);                                        \
        MT_CHECK(rc_ != MPI_SUCCESS && ec == (cls), "%s gave class %d", \
                 #call, ec);                                              \
    } while (0)
    EXPECT(MPI_Pready(0, s), MPI_ERR_REQUEST);          /* not started */
    EXPECT(MPI_Pready(0, r), MPI_ERR_REQUEST);          /* a receive */
    EXPECT(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST); /* a send */
    EXPECT(MPI_Parrived(r, 4, &flag), MPI_ERR_ARG);
    EXPECT(MPI_Precv_init(x, 1, 1, MPI_INT, MPI_ANY_SOURCE, 0,
                          MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_RANK);
    EXPECT(MPI_Precv_init(x, 1, 1, MPI_INT, prev, MPI_ANY_TAG,
                          MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_TAG);
    EXPECT(MPI_Psend_init(x, -1, 1, MPI_INT, next, 0, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &r), MPI_ERR_ARG);
    EXPECT(MPI_Psend_init(x, 1, 1, MPI_INT, size, 0, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &r), MPI_ERR_RANK);
    EXPECT(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    flag = 0;
    MPI_Parrived(r, 0, &flag);
    MT_CHECK(flag, "Parrived on an inactive request gives flag %d", flag);
    MPI_Start(&r);
    MPI_Start(&s);
    EXPECT(MPI_Pready(4, s), MPI_ERR_ARG);
    EXPECT(MPI_Pready(-1, s), MPI_ERR_ARG);
    EXPECT(MPI_Pready_range(2, 1, s), MPI_ERR_ARG);
    EXPECT(MPI_Pready_list(2, list, s), MPI_ERR_ARG);   /* 1 twice */
    EXPECT(MPI_Pready(1, s), MPI_ERR_ARG);              /* ready already */
    EXPECT(MPI_Cancel(&s), MPI_ERR_REQUEST);
    MPI_Pready_list(3, (int[]){0, 3, 2}, s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;

    rounds(64, 8, 8, 3, 0);
    rounds(64, 1, 16, 3, 1);
    rounds(561, 33, 17, 4, 0);
    rounds(561, 17, 33, 4, 1);
    rounds(1 << 18, 64, 8, 3, 0);   /* 2 MiB: rendezvous */
    init_order();
    late_sender_vector();
    proc_null();
    errors();
    return mt_finish();
}
