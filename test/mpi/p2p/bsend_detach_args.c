/* Detaching a buffer needs both outputs: a NULL buffer_addr or size is
 * MPI_ERR_ARG for every detach form, and the buffer stays attached. */
#include "../mpitest.h"

static char pbuf[4096], cbuf[4096], sbuf[4096];

static void expect_arg(int rc, const char *what)
{
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    MT_CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_ARG, "%s gave class %d",
             what, cls);
}

static void expect_buffer(void *got, int size, void *want, const char *what)
{
    MT_CHECK(got == want && size == 4096, "%s detached %p size %d", what,
             got, size);
}

int main(int argc, char **argv)
{
    void *addr = NULL;
    int size = 0;
    MPI_Count csize = 0;
    MPI_Session s;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);

    MPI_Buffer_attach(pbuf, sizeof(pbuf));
    expect_arg(MPI_Buffer_detach(&addr, NULL), "Buffer_detach size");
    expect_arg(MPI_Buffer_detach(NULL, &size), "Buffer_detach addr");
    expect_arg(MPI_Buffer_detach_c(&addr, NULL), "Buffer_detach_c size");
    MPI_Buffer_detach(&addr, &size);
    expect_buffer(addr, size, pbuf, "Buffer_detach");

    MPI_Comm_attach_buffer(MPI_COMM_WORLD, cbuf, sizeof(cbuf));
    expect_arg(MPI_Comm_detach_buffer(MPI_COMM_WORLD, &addr, NULL),
               "Comm_detach_buffer size");
    expect_arg(MPI_Comm_detach_buffer_c(MPI_COMM_WORLD, &addr, NULL),
               "Comm_detach_buffer_c size");
    expect_arg(MPI_Comm_detach_buffer_c(MPI_COMM_WORLD, NULL, &csize),
               "Comm_detach_buffer_c addr");
    MPI_Comm_detach_buffer_c(MPI_COMM_WORLD, &addr, &csize);
    expect_buffer(addr, (int)csize, cbuf, "Comm_detach_buffer_c");

    MPI_Session_attach_buffer(s, sbuf, sizeof(sbuf));
    expect_arg(MPI_Session_detach_buffer(s, &addr, NULL),
               "Session_detach_buffer size");
    expect_arg(MPI_Session_detach_buffer_c(s, &addr, NULL),
               "Session_detach_buffer_c size");
    expect_arg(MPI_Session_detach_buffer(s, NULL, &size),
               "Session_detach_buffer addr");
    MPI_Session_detach_buffer(s, &addr, &size);
    expect_buffer(addr, size, sbuf, "Session_detach_buffer");

    MPI_Session_finalize(&s);
    return mt_finish();
}
