/*
 * A message whose data ends inside a basic element of the receive type
 * comes from a sender whose type signature does not match (MPICH's
 * errors/pt2pt/truncmsg2: three chars received as ints).  The receive
 * must report an error (MPI_ERR_TYPE) instead of succeeding with a torn
 * element.  Receives that end on element boundaries, whole or partial,
 * still succeed and report their counts.  Rank 1 sends to rank 0;
 * other ranks only take part in the barriers.
 */
#include "../mpitest.h"

#include <string.h>

/* Receives tag's message into count elements of dt: the error class. */
static int recv_class(void *buf, int count, MPI_Datatype dt, int tag,
                      int nonblocking, MPI_Status *st)
{
    int rc, cls;

    if (nonblocking) {
        MPI_Request r;
        rc = MPI_Irecv(buf, count, dt, 1, tag, MPI_COMM_WORLD, &r);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, st);
    } else {
        rc = MPI_Recv(buf, count, dt, 1, tag, MPI_COMM_WORLD, st);
    }
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    int rank, size, blk[3] = {1, 1, 1}, iblk[3] = {1, 2, 1};
    int idx[3] = {4, 8, 16};
    MPI_Aint disp[3] = {0, 2, 4};
    MPI_Datatype ctype[3] = {MPI_CHAR, MPI_CHAR, MPI_CHAR}, chars, ints;
    char src[64];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_create_struct(3, blk, disp, ctype, &chars);
    MPI_Type_commit(&chars);
    MPI_Type_indexed(3, iblk, idx, MPI_INT, &ints);
    MPI_Type_commit(&ints);
    for (int i = 0; i < 64; i++)
        src[i] = (char)(i + 1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size >= 2 && rank == 1) {
        for (int nb = 0; nb < 2; nb++) {
            MPI_Send(src, 1, chars, 0, 10 + nb, MPI_COMM_WORLD);
            MPI_Send(src, 3, MPI_CHAR, 0, 20 + nb, MPI_COMM_WORLD);
            MPI_Send(src, 2 * (int)sizeof(int), MPI_CHAR, 0, 30 + nb,
                     MPI_COMM_WORLD);
            MPI_Send(src, 3, MPI_CHAR, 0, 40 + nb, MPI_COMM_WORLD);
            MPI_Send(src, 3, MPI_CHAR, 0, 50 + nb, MPI_COMM_WORLD);
        }
    } else if (size >= 2 && rank == 0) {
        for (int nb = 0; nb < 2; nb++) {
            int buf[32], cls, n = -1;
            MPI_Status st;
            memset(buf, 0, sizeof(buf));
            /* truncmsg2: 3 chars into an indexed type of 4 ints */
            cls = recv_class(buf, 1, ints, 10 + nb, nb, &st);
            MT_CHECK(cls == MPI_ERR_TYPE, "chars into indexed ints (%s): "
                     "class %d, want MPI_ERR_TYPE",
                     nb ? "Irecv" : "Recv", cls);
            /* 3 chars into 4 ints of a vector type (non-contiguous) */
            MPI_Datatype vec;
            MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
            MPI_Type_commit(&vec);
            cls = recv_class(buf, 1, vec, 20 + nb, nb, &st);
            MT_CHECK(cls == MPI_ERR_TYPE, "chars into a vector of ints (%s):"
                     " class %d", nb ? "Irecv" : "Recv", cls);
            /* two whole ints: fine, count 2 of MPI_INT, undefined of vec */
            cls = recv_class(buf, 1, vec, 30 + nb, nb, &st);
            MT_CHECK(cls == MPI_SUCCESS, "two ints into a vector (%s): "
                     "class %d", nb ? "Irecv" : "Recv", cls);
            MPI_Get_elements(&st, vec, &n);
            MT_CHECK(n == 2, "elements %d, want 2", n);
            MPI_Type_free(&vec);
            /* bytes are never partial */
            cls = recv_class(buf, 8, MPI_BYTE, 40 + nb, nb, &st);
            MPI_Get_count(&st, MPI_BYTE, &n);
            MT_CHECK(cls == MPI_SUCCESS && n == 3, "3 bytes: class %d, "
                     "count %d", cls, n);
            /* 3 chars into contiguous ints (the direct MPI_Recv path) */
            cls = recv_class(buf, 4, MPI_INT, 50 + nb, nb, &st);
            MT_CHECK(cls == MPI_ERR_TYPE, "chars into ints (%s): class %d",
                     nb ? "Irecv" : "Recv", cls);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_free(&chars);
    MPI_Type_free(&ints);
    return mt_finish();
}
