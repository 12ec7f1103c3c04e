/*
 * Bad datatype arguments with MPI_ERRORS_RETURN: each call returns its
 * error class and the library stays usable.
 */
#include "../mpitest.h"

static int cls(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    int rank, buf[4] = {0};
    MPI_Datatype t, p = MPI_INT;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MT_CHECK(cls(MPI_Type_contiguous(-3, MPI_INT, &t)) == MPI_ERR_COUNT,
             "negative count");
    MT_CHECK(cls(MPI_Type_vector(2, 1, 1, MPI_DATATYPE_NULL, &t)) ==
             MPI_ERR_TYPE, "null type");
    MT_CHECK(cls(MPI_Type_free(&p)) == MPI_ERR_TYPE, "free predefined");
    MPI_Type_contiguous(2, MPI_INT, &t);
    MT_CHECK(cls(MPI_Send(buf, 1, t, rank, 0, MPI_COMM_WORLD)) ==
             MPI_ERR_TYPE, "uncommitted type in a send");
    MT_CHECK(cls(MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, 0,
                          MPI_COMM_WORLD)) == MPI_ERR_TYPE,
             "MPI_DATATYPE_NULL in a send");
    MPI_Type_free(&t);
    MPI_Datatype big, huge;
    MPI_Type_create_hvector(2, 1, (MPI_Aint)1 << 62, MPI_INT, &big);
    MT_CHECK(cls(MPI_Type_contiguous(4, big, &huge)) == MPI_ERR_ARG,
             "extent past 2^63");
    MPI_Type_free(&big);
    /* mismatched signature, longer message: truncation, and not a byte
     * written past what the receive type describes */
    {
        int src[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        double dst[4] = {-1, -1, -1, -1};
        MPI_Datatype v;
        MPI_Status st;
        MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &v);  /* dst[0], dst[2] */
        MPI_Type_commit(&v);
        int rc = MPI_Sendrecv(src, 10, MPI_INT, rank, 2, dst, 1, v, rank, 2,
                              MPI_COMM_SELF, &st);
        MT_CHECK(cls(rc) == MPI_ERR_TRUNCATE ||
                 (cls(rc) == MPI_ERR_IN_STATUS &&
                  cls(st.MPI_ERROR) == MPI_ERR_TRUNCATE),
                 "truncation: rc class %d", cls(rc));
        MT_CHECK(dst[1] == -1 && dst[3] == -1,
                 "receive wrote outside its type: %g %g", dst[1], dst[3]);
        MPI_Type_free(&v);
    }
    /* still usable */
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Sendrecv(buf, 1, t, rank, 1, buf, 1, t, rank, 1, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
    return mt_finish();
}
