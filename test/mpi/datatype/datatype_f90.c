/* MPI_Type_create_f90_{real,complex,integer} types work where predefined
 * types do: sizes, point-to-point, and predefined reductions (which must
 * resolve the f90 handle to its basic type, not reject it). */
#include <mpi.h>
#include <complex.h>
#include "../mpitest.h"

static void check_sizes(MPI_Datatype r, MPI_Datatype c, MPI_Datatype i)
{
    int s;
    MPI_Type_size(r, &s);
    MT_CHECK(s == 8, "f90 real(15) size %d", s);
    MPI_Type_size(c, &s);
    MT_CHECK(s == 16, "f90 complex(15) size %d", s);
    MPI_Type_size(i, &s);
    MT_CHECK(s == 4, "f90 integer(9) size %d", s);
}

static void check_reductions(MPI_Datatype r, MPI_Datatype c, MPI_Datatype i,
                             int rank, int size)
{
    double d = rank + 0.5, dsum = 0;
    double complex z = rank + 1.0 * I, zsum = 0;
    int v = rank + 1, vmax = 0, in = 5, inout = 7;
    MT_CHECK(MPI_Reduce_local(&in, &inout, 1, i, MPI_SUM) == MPI_SUCCESS &&
             inout == 12, "Reduce_local on f90 integer: %d", inout);
    MPI_Allreduce(&d, &dsum, 1, r, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(dsum == size * (size - 1) / 2.0 + 0.5 * size, "real sum %g", dsum);
    MPI_Allreduce(&z, &zsum, 1, c, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(creal(zsum) == size * (size - 1) / 2.0 && cimag(zsum) == size,
             "complex sum %g%+gi", creal(zsum), cimag(zsum));
    MPI_Allreduce(&v, &vmax, 1, i, MPI_MAX, MPI_COMM_WORLD);
    MT_CHECK(vmax == size, "integer max %d", vmax);
}

static void check_p2p(MPI_Datatype r, int rank, int size)
{
    double out[3] = {rank, rank * 2.0, rank * 3.0}, in[3] = {0};
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(out, 3, r, next, 0, in, 3, r, prev, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MT_CHECK(in[0] == prev && in[2] == prev * 3.0, "p2p got %g %g", in[0],
             in[2]);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Datatype r, c, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_create_f90_real(15, MPI_UNDEFINED, &r);
    MPI_Type_create_f90_complex(15, MPI_UNDEFINED, &c);
    MPI_Type_create_f90_integer(9, &i);
    check_sizes(r, c, i);
    check_reductions(r, c, i, rank, size);
    check_p2p(r, rank, size);
    return mt_finish();
}
