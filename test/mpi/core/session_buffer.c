/* MPI-4.1 session buffers: MPI_Session_attach/detach_buffer (int and _c),
 * MPI_Session_flush_buffer / iflush_buffer.  A buffered send on a
 * communicator derived from a session uses the communicator's buffer,
 * else the session's, else the process's: a session buffer too small for
 * a message makes MPI_Bsend fail there (MPI_ERR_BUFFER) while the same
 * send on MPI_COMM_WORLD succeeds from the big process buffer.  Session
 * finalize waits for the messages still in the session buffer. */
#include "../mpitest.h"
#include <string.h>

#define BIG 4000              /* ints: more than the small buffers hold */

static int rank, size;

static int err_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* rank 0 Bsends n ints to the last rank on comm, which checks them */
static void exchange(MPI_Comm comm, int n, int tag, const char *what)
{
    static int buf[BIG];
    int last = size - 1;

    if (rank == 0) {
        for (int i = 0; i < n; i++)
            buf[i] = i * 3 + tag;
        MT_CHECK_RC(MPI_Bsend(buf, n, MPI_INT, last, tag, comm));
    }
    if (rank == last) {
        MT_CHECK_RC(MPI_Recv(buf, n, MPI_INT, 0, tag, comm,
                             MPI_STATUS_IGNORE));
        for (int i = 0; i < n; i++)
            if (buf[i] != i * 3 + tag) {
                MT_CHECK(0, "%s: element %d = %d", what, i, buf[i]);
                break;
            }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Session s;
    MPI_Group g;
    MPI_Comm sc;
    MT_CHECK_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MT_CHECK_RC(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MT_CHECK_RC(MPI_Comm_create_from_group(g, "session_buffer",
                                           MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                           &sc));
    /* comms derived from the session comm keep using its buffer */
    MPI_Comm dup;
    MT_CHECK_RC(MPI_Comm_dup(sc, &dup));

    static char process_buf[BIG * 8 + 4 * MPI_BSEND_OVERHEAD];
    static char small_buf[256 + MPI_BSEND_OVERHEAD];
    static char comm_buf[BIG * 8 + 4 * MPI_BSEND_OVERHEAD];
    static int big[BIG];
    MT_CHECK_RC(MPI_Buffer_attach(process_buf, sizeof(process_buf)));
    MT_CHECK_RC(MPI_Session_attach_buffer(s, small_buf, sizeof(small_buf)));

    /* a second attach is an error on the session */
    int rc = MPI_Session_attach_buffer(s, small_buf, sizeof(small_buf));
    MT_CHECK(err_class(rc) == MPI_ERR_BUFFER, "second attach: class %d",
             err_class(rc));

    /* small messages go through the session buffer */
    exchange(sc, 10, 1, "session buffer");
    exchange(dup, 10, 2, "session buffer, dup'ed comm");
    /* too big for the session buffer: it is the one used */
    if (rank == 0) {
        rc = MPI_Bsend(big, BIG, MPI_INT, size - 1, 3, sc);
        MT_CHECK(err_class(rc) == MPI_ERR_BUFFER, "big Bsend on the "
                 "session comm: class %d (session buffer not used?)",
                 err_class(rc));
    }
    /* nor on a comm made from a group derived from the session's group */
    MPI_Group g2;
    MPI_Comm sc2;
    int all[64];
    for (int i = 0; i < size && i < 64; i++)
        all[i] = size - 1 - i;               /* reversed: a new group */
    MT_CHECK_RC(MPI_Group_incl(g, size < 64 ? size : 64, all, &g2));
    MT_CHECK_RC(MPI_Comm_create_from_group(g2, "session_buffer2",
                                           MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                           &sc2));
    int r2;
    MPI_Comm_rank(sc2, &r2);
    if (r2 == 0) {
        rc = MPI_Bsend(big, BIG, MPI_INT, size - 1, 3, sc2);
        MT_CHECK(err_class(rc) == MPI_ERR_BUFFER, "big Bsend on a comm of "
                 "a derived group: class %d", err_class(rc));
    }
    MPI_Comm_free(&sc2);
    MPI_Group_free(&g2);
    /* MPI_COMM_WORLD does not derive from the session */
    exchange(MPI_COMM_WORLD, BIG, 4, "process buffer");
    /* the communicator's own buffer comes first */
    MT_CHECK_RC(MPI_Comm_attach_buffer(sc, comm_buf, sizeof(comm_buf)));
    exchange(sc, BIG, 5, "comm buffer");
    void *addr;
    int bytes;
    MT_CHECK_RC(MPI_Comm_detach_buffer(sc, &addr, &bytes));

    /* flushes: the messages buffered so far have left */
    MPI_Request fr;
    exchange(sc, 20, 6, "before flush");
    MT_CHECK_RC(MPI_Session_flush_buffer(s));
    exchange(sc, 20, 7, "before iflush");
    MT_CHECK_RC(MPI_Session_iflush_buffer(s, &fr));
    MT_CHECK_RC(MPI_Wait(&fr, MPI_STATUS_IGNORE));

    /* detach gives back what was attached */
    MT_CHECK_RC(MPI_Session_detach_buffer(s, &addr, &bytes));
    MT_CHECK(addr == small_buf && bytes == (int)sizeof(small_buf),
             "detach gave %p/%d, attached %p/%d", addr, bytes,
             (void *)small_buf, (int)sizeof(small_buf));
    /* automatic buffer, large-count forms */
    MT_CHECK_RC(MPI_Session_attach_buffer_c(s, MPI_BUFFER_AUTOMATIC, 0));
    exchange(sc, BIG, 8, "automatic session buffer");
    MPI_Count cbytes = -1;
    MT_CHECK_RC(MPI_Session_detach_buffer_c(s, &addr, &cbytes));
    MT_CHECK(addr == MPI_BUFFER_AUTOMATIC && cbytes == 0,
             "detach_c gave %p/%lld", addr, (long long)cbytes);

    /* bad arguments */
    MPI_Session none = MPI_SESSION_NULL;
    rc = MPI_Session_flush_buffer(none);
    MT_CHECK(err_class(rc) == MPI_ERR_SESSION, "null session: class %d",
             err_class(rc));
    rc = MPI_Session_attach_buffer(s, small_buf, -1);
    MT_CHECK(err_class(rc) == MPI_ERR_BUFFER, "negative size: class %d",
             err_class(rc));
    rc = MPI_Session_iflush_buffer(s, NULL);
    MT_CHECK(err_class(rc) == MPI_ERR_ARG, "NULL request: class %d",
             err_class(rc));

    /* finalize waits for what is still in the session buffer */
    MT_CHECK_RC(MPI_Session_attach_buffer(s, small_buf, sizeof(small_buf)));
    int v = 77, got = -1;
    if (rank == 0)
        MT_CHECK_RC(MPI_Bsend(&v, 1, MPI_INT, size - 1, 9, dup));
    MPI_Comm_free(&sc);
    MPI_Group_free(&g);
    if (rank == size - 1) {
        MT_CHECK_RC(MPI_Recv(&got, 1, MPI_INT, 0, 9, dup,
                             MPI_STATUS_IGNORE));
        MT_CHECK(got == 77, "message sent before session finalize: %d",
                 got);
    }
    MPI_Comm_free(&dup);
    MT_CHECK_RC(MPI_Session_finalize(&s));
    MT_CHECK_RC(MPI_Buffer_detach(&addr, &bytes));
    return mt_finish();
}
