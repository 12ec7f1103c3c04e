/* MPI_Pack_external_c / Unpack_external_c / Pack_external_size_c give the
 * same bytes and sizes as the MPI_Aint forms (a vector of ints and a struct
 * of int + double, in big-endian external32), and report errors. */
#include "../mpitest.h"
#include <string.h>

struct pair { int i; double d; };

int main(int argc, char **argv)
{
    int v[12], back[12], cls;
    struct pair p[3] = {{1, 1.5}, {-2, -2.25}, {3, 1e300}}, q[3];
    MPI_Datatype vec, st;
    char a[256], b[256];
    MPI_Aint apos = 0, asize = 0;
    MPI_Count cpos = 0, csize = 0;

    MPI_Init(&argc, &argv);
    for (int i = 0; i < 12; i++)
        v[i] = i * 0x01020304;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disp, types, &st);
    MPI_Type_commit(&st);

    MPI_Pack_external_size("external32", 1, vec, &asize);
    MPI_Pack_external_size_c("external32", 1, vec, &csize);
    MT_CHECK(asize == 24 && csize == 24, "vector sizes %ld %lld",
             (long)asize, (long long)csize);
    MPI_Pack_external_size_c("external32", 3, st, &csize);
    MT_CHECK(csize == 36, "struct size %lld", (long long)csize);

    memset(a, 0, sizeof(a));
    memset(b, 0, sizeof(b));
    MPI_Pack_external("external32", v, 1, vec, a, sizeof(a), &apos);
    MPI_Pack_external("external32", p, 3, st, a, sizeof(a), &apos);
    MPI_Pack_external_c("external32", v, 1, vec, b, sizeof(b), &cpos);
    MPI_Pack_external_c("external32", p, 3, st, b, sizeof(b), &cpos);
    MT_CHECK(apos == 60 && cpos == 60, "positions %ld %lld", (long)apos,
             (long long)cpos);
    MT_CHECK(memcmp(a, b, 60) == 0, "packed bytes differ");
    MT_CHECK((unsigned char)b[4] == 0x01 && (unsigned char)b[7] == 0x04,
             "v[1] not big-endian: %02x %02x", (unsigned char)b[4],
             (unsigned char)b[7]);

    cpos = 0;
    memset(back, 0, sizeof(back));
    memset(q, 0, sizeof(q));
    MPI_Unpack_external_c("external32", b, 60, &cpos, back, 1, vec);
    MPI_Unpack_external_c("external32", b, 60, &cpos, q, 3, st);
    MT_CHECK(cpos == 60, "unpack position %lld", (long long)cpos);
    for (int i = 0; i < 12; i++)
        MT_CHECK(back[i] == (i % 4 < 2 ? v[i] : 0), "back[%d]=%d", i,
                 back[i]);
    for (int i = 0; i < 3; i++)
        MT_CHECK(q[i].i == p[i].i && q[i].d == p[i].d, "pair %d: %d %g", i,
                 q[i].i, q[i].d);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    cpos = 50;
    int rc = MPI_Pack_external_c("external32", v, 1, vec, b, 60, &cpos);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_TRUNCATE && cpos == 50, "truncation: class %d",
             cls);
    rc = MPI_Unpack_external_c("native", b, 60, &cpos, back, 1, vec);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_UNSUPPORTED_DATAREP, "datarep: class %d", cls);
    rc = MPI_Pack_external_size_c("external32", 1, vec, NULL);
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_ARG, "NULL size: class %d", cls);

    MPI_Type_free(&vec);
    MPI_Type_free(&st);
    return mt_finish();
}
