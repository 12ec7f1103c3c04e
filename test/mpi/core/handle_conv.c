/* Fortran handle conversions of every handle kind: null maps to null,
 * predefined and user handles round-trip, one handle always gets the same
 * integer, distinct live handles get distinct integers, and a converted
 * handle works (a collective on the f2c'd communicator). */
#include "../mpitest.h"

static void my_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in; (void)inout; (void)len; (void)dt;
}

static void my_eh(MPI_Comm *comm, int *code, ...)
{
    (void)comm; (void)code;
}

#define ROUND_TRIP(kind, h)                                              \
    do {                                                                 \
        MPI_Fint f_ = MPI_##kind##_c2f(h);                               \
        MT_CHECK(MPI_##kind##_f2c(f_) == (h), #kind " %s round trip "    \
                 "(f=%d)", #h, (int)f_);                                 \
        MT_CHECK(MPI_##kind##_c2f(h) == f_, #kind " %s: same integer "   \
                 "twice", #h);                                           \
    } while (0)

#define DISTINCT(kind, a, b)                                             \
    MT_CHECK(MPI_##kind##_c2f(a) != MPI_##kind##_c2f(b),                 \
             #kind " %s and %s share an integer", #a, #b)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* null handles */
    MT_CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL,
             "comm null");
    MT_CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DATATYPE_NULL)) ==
             MPI_DATATYPE_NULL, "type null");
    MT_CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)) == MPI_GROUP_NULL,
             "group null");
    MT_CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_OP_NULL)) == MPI_OP_NULL, "op null");
    MT_CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL,
             "win null");
    MT_CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL,
             "info null");
    MT_CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL)) ==
             MPI_ERRHANDLER_NULL, "errhandler null");
    MT_CHECK(MPI_Session_f2c(MPI_Session_c2f(MPI_SESSION_NULL)) ==
             MPI_SESSION_NULL, "session null");

    /* predefined handles */
    ROUND_TRIP(Comm, MPI_COMM_WORLD);
    ROUND_TRIP(Comm, MPI_COMM_SELF);
    DISTINCT(Comm, MPI_COMM_WORLD, MPI_COMM_SELF);
    ROUND_TRIP(Type, MPI_INT);
    ROUND_TRIP(Type, MPI_DOUBLE);
    DISTINCT(Type, MPI_INT, MPI_DOUBLE);
    ROUND_TRIP(Group, MPI_GROUP_EMPTY);
    ROUND_TRIP(Op, MPI_SUM);
    ROUND_TRIP(Op, MPI_MAX);
    DISTINCT(Op, MPI_SUM, MPI_MAX);
    ROUND_TRIP(Info, MPI_INFO_ENV);
    ROUND_TRIP(Errhandler, MPI_ERRORS_RETURN);
    ROUND_TRIP(Errhandler, MPI_ERRORS_ARE_FATAL);
    DISTINCT(Errhandler, MPI_ERRORS_RETURN, MPI_ERRORS_ARE_FATAL);

    /* user handles */
    MPI_Comm dup;
    MPI_Datatype vec;
    MPI_Group grp;
    MPI_Op op;
    MPI_Info info;
    MPI_Errhandler eh;
    MPI_Win win;
    MPI_Session session;
    int winbuf[4];
    MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_CHECK_RC(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
    MT_CHECK_RC(MPI_Type_commit(&vec));
    MT_CHECK_RC(MPI_Comm_group(dup, &grp));
    MT_CHECK_RC(MPI_Op_create(my_op, 1, &op));
    MT_CHECK_RC(MPI_Info_create(&info));
    MT_CHECK_RC(MPI_Comm_create_errhandler(my_eh, &eh));
    MT_CHECK_RC(MPI_Win_create(winbuf, sizeof(winbuf), 1, MPI_INFO_NULL,
                               dup, &win));
    MT_CHECK_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                 &session));
    ROUND_TRIP(Comm, dup);
    DISTINCT(Comm, dup, MPI_COMM_WORLD);
    ROUND_TRIP(Type, vec);
    DISTINCT(Type, vec, MPI_INT);
    ROUND_TRIP(Group, grp);
    ROUND_TRIP(Op, op);
    DISTINCT(Op, op, MPI_SUM);
    ROUND_TRIP(Info, info);
    ROUND_TRIP(Errhandler, eh);
    ROUND_TRIP(Win, win);
    ROUND_TRIP(Session, session);
    MT_CHECK(MPI_Comm_c2f(dup) != 0 && MPI_Type_c2f(vec) != 0 &&
             MPI_Win_c2f(win) != 0 && MPI_Session_c2f(session) != 0,
             "a live handle converted to the null integer");

    /* the converted handles work */
    MPI_Comm back = MPI_Comm_f2c(MPI_Comm_c2f(dup));
    int sum = 0, one = 1;
    MT_CHECK_RC(MPI_Allreduce(&one, &sum, 1,
                              MPI_Type_f2c(MPI_Type_c2f(MPI_INT)),
                              MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)), back));
    MT_CHECK(sum == size, "allreduce over the f2c'd comm: %d != %d", sum,
             size);
    int gsize = -1;
    MPI_Group_size(MPI_Group_f2c(MPI_Group_c2f(grp)), &gsize);
    MT_CHECK(gsize == size, "group size %d", gsize);
    MT_CHECK_RC(MPI_Info_set(MPI_Info_f2c(MPI_Info_c2f(info)), "k", "v"));
    int nkeys = 0;
    MPI_Info_get_nkeys(info, &nkeys);
    MT_CHECK(nkeys == 1, "info through f2c has %d keys", nkeys);
    MPI_Count tsize = 0;
    MPI_Type_size_x(MPI_Type_f2c(MPI_Type_c2f(vec)), &tsize);
    MT_CHECK(tsize == 2 * (MPI_Count)sizeof(int), "vector size %lld",
             (long long)tsize);

    MPI_Session_finalize(&session);
    MPI_Win_free(&win);
    MPI_Errhandler_free(&eh);
    MPI_Info_free(&info);
    MPI_Op_free(&op);
    MPI_Group_free(&grp);
    MPI_Type_free(&vec);
    MPI_Comm_free(&dup);
    return mt_finish();
}
