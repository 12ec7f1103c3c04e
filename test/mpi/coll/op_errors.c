/*
 * Bad input to the op calls, under MPI_ERRORS_RETURN: each gives the
 * standard's error class and the library stays usable.
 */
#include "../mpitest.h"

static void noop_fn(void *in, void *io, int *len, MPI_Datatype *dt)
{
}

#define EXPECT(call, cls)                                                  \
    do {                                                                   \
        int rc_ = (call), c_ = -1;                                         \
        MPI_Error_class(rc_, &c_);                                         \
        MT_CHECK(c_ == (cls), "%s gave class %d, want %s", #call, c_,      \
                 #cls);                                                    \
    } while (0)

int main(int argc, char **argv)
{
    int a[4] = { 1, 2, 3, 4 }, b[4] = { 0 };
    char ca[4] = "abc", cb[4] = "xyz";
    MPI_Op op = MPI_OP_NULL, sum = MPI_SUM;
    MPI_Datatype uncommitted, mixed;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* (op, type) pairs the standard does not define */
    EXPECT(MPI_Reduce_local(ca, cb, 3, MPI_CHAR, MPI_SUM), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_MINLOC), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 2, MPI_FLOAT, MPI_BAND), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 2, MPI_DOUBLE, MPI_LAND), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX),
           MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 1, MPI_2INT, MPI_SUM), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_REPLACE), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_OP_NULL), MPI_ERR_OP);

    /* a struct mixing double and int has no single basic type */
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, 8 };
    MPI_Datatype types[2] = { MPI_DOUBLE, MPI_INT };
    MPI_Type_create_struct(2, bl, disp, types, &mixed);
    MPI_Type_commit(&mixed);
    double d[4] = { 0 }, e[4] = { 0 };
    EXPECT(MPI_Reduce_local(d, e, 1, mixed, MPI_SUM), MPI_ERR_OP);

    /* count, type and buffer arguments */
    EXPECT(MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_local(a, b, 2, MPI_DATATYPE_NULL, MPI_SUM),
           MPI_ERR_TYPE);
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    EXPECT(MPI_Reduce_local(a, b, 1, uncommitted, MPI_SUM), MPI_ERR_TYPE);
    EXPECT(MPI_Reduce_local(MPI_IN_PLACE, b, 2, MPI_INT, MPI_SUM),
           MPI_ERR_BUFFER);
    EXPECT(MPI_Reduce_local(NULL, b, 2, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    EXPECT(MPI_Reduce_local(b, b, 2, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);

    /* op objects */
    EXPECT(MPI_Op_create(NULL, 1, &op), MPI_ERR_ARG);
    EXPECT(MPI_Op_create(noop_fn, 1, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Op_free(&sum), MPI_ERR_OP);
    MT_CHECK(sum == MPI_SUM, "a failed free changed the handle");
    EXPECT(MPI_Op_free(NULL), MPI_ERR_ARG);
    MT_CHECK_RC(MPI_Op_create(noop_fn, 0, &op));
    MT_CHECK_RC(MPI_Op_free(&op));
    EXPECT(MPI_Op_free(&op), MPI_ERR_OP);          /* now MPI_OP_NULL */
    int commute;
    EXPECT(MPI_Op_commutative(MPI_OP_NULL, &commute), MPI_ERR_OP);
    EXPECT(MPI_Op_commutative(MPI_SUM, NULL), MPI_ERR_ARG);

    /* still usable */
    MT_CHECK_RC(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM));
    MT_CHECK(b[3] == 4, "b[3] = %d", b[3]);

    MPI_Type_free(&uncommitted);
    MPI_Type_free(&mixed);
    return mt_finish();
}
