/* Predefined datatypes: static objects usable before MPI_Init; pair types take
 * the C struct { T1 a; T2 b; } layout so MINLOC/MAXLOC buffers match. */
#include "dt.h"

#include <stddef.h>
#include <wchar.h>

#define NODE1(n_) {{.kind = UCMPI_DTN_VEC, .span = 1, .count = 1, \
                      .len = (n_), .size = (n_)}}

#define DT_OBJ(var, sz, ext, tlen, contig_)                              \
    UCMPI_PREDEFINED(struct ucmpi_datatype_s, ucmpi_dt_##var,            \
                     UCMPI_PAD_DATATYPE) = {.obj = {                     \
        .magic = UCMPI_MAGIC_DATATYPE, .refcount = 1, .predefined = 1,   \
        .committed = 1, .contig = (contig_), .size = (sz), .lb = 0,      \
        .extent = (ext), .true_lb = 0, .true_extent = (tlen),            \
        .impl = &dt_##var##_impl}}

/* A basic type: C type, typeclass, external32 size and conversion. */
#define BASIC(var, str, ctype, tclass, x32, conv, unit)                  \
    static ucmpi_dt_node_t dt_##var##_nodes[1] = NODE1(sizeof(ctype));        \
    static ucmpi_dt_impl_t dt_##var##_impl = {                                \
        .nodes = dt_##var##_nodes, .nnodes = 1, .kind = UCMPI_DTK_BASIC,      \
        .combiner = MPI_COMBINER_NAMED, .align = _Alignof(ctype),        \
        .ext32_size = (x32), .ext32_conv = (conv), .ext32_unit = (unit), \
        .typeclass = (tclass), .nelems = 1, .ext32_total = (x32),        \
        .basic = &ucmpi_dt_##var, .name = str};                          \
    DT_OBJ(var, sizeof(ctype), sizeof(ctype), sizeof(ctype), 1)

#define SWAP UCMPI_X32_SWAP
#define REAL MPI_TYPECLASS_REAL
#define INTEGER MPI_TYPECLASS_INTEGER
#define CPLX MPI_TYPECLASS_COMPLEX

BASIC(char, "MPI_CHAR", char, 0, 1, SWAP, 1);
BASIC(signed_char, "MPI_SIGNED_CHAR", signed char, INTEGER, 1, SWAP, 1);
BASIC(unsigned_char, "MPI_UNSIGNED_CHAR", unsigned char, INTEGER, 1, SWAP, 1);
BASIC(byte, "MPI_BYTE", unsigned char, 0, 1, SWAP, 1);
BASIC(wchar, "MPI_WCHAR", wchar_t, 0, 4, SWAP, sizeof(wchar_t));
BASIC(short, "MPI_SHORT", short, INTEGER, 2, SWAP, 2);
BASIC(unsigned_short, "MPI_UNSIGNED_SHORT", unsigned short, INTEGER, 2, SWAP, 2);
BASIC(int, "MPI_INT", int, INTEGER, 4, SWAP, 4);
BASIC(unsigned, "MPI_UNSIGNED", unsigned, INTEGER, 4, SWAP, 4);
BASIC(long, "MPI_LONG", long, INTEGER, 4, UCMPI_X32_LONG, sizeof(long));
BASIC(unsigned_long, "MPI_UNSIGNED_LONG", unsigned long, INTEGER, 4,
      UCMPI_X32_ULONG, sizeof(long));
BASIC(long_long, "MPI_LONG_LONG_INT", long long, INTEGER, 8, SWAP, 8);
BASIC(unsigned_long_long, "MPI_UNSIGNED_LONG_LONG", unsigned long long,
      INTEGER, 8, SWAP, 8);
BASIC(float, "MPI_FLOAT", float, REAL, 4, SWAP, 4);
BASIC(double, "MPI_DOUBLE", double, REAL, 8, SWAP, 8);
BASIC(long_double, "MPI_LONG_DOUBLE", long double, REAL, 16,
      UCMPI_X32_LDBL, sizeof(long double));
BASIC(c_bool, "MPI_C_BOOL", _Bool, 0, 1, SWAP, 1);
BASIC(int8_t, "MPI_INT8_T", int8_t, INTEGER, 1, SWAP, 1);
BASIC(int16_t, "MPI_INT16_T", int16_t, INTEGER, 2, SWAP, 2);
BASIC(int32_t, "MPI_INT32_T", int32_t, INTEGER, 4, SWAP, 4);
BASIC(int64_t, "MPI_INT64_T", int64_t, INTEGER, 8, SWAP, 8);
BASIC(uint8_t, "MPI_UINT8_T", uint8_t, INTEGER, 1, SWAP, 1);
BASIC(uint16_t, "MPI_UINT16_T", uint16_t, INTEGER, 2, SWAP, 2);
BASIC(uint32_t, "MPI_UINT32_T", uint32_t, INTEGER, 4, SWAP, 4);
BASIC(uint64_t, "MPI_UINT64_T", uint64_t, INTEGER, 8, SWAP, 8);
BASIC(aint, "MPI_AINT", MPI_Aint, INTEGER, 8, SWAP, sizeof(MPI_Aint));
BASIC(count, "MPI_COUNT", MPI_Count, INTEGER, 8, SWAP, 8);
BASIC(offset, "MPI_OFFSET", MPI_Offset, INTEGER, 8, SWAP, 8);
BASIC(c_float_complex, "MPI_C_COMPLEX", float _Complex, CPLX, 8,
      SWAP, 4);
BASIC(c_double_complex, "MPI_C_DOUBLE_COMPLEX", double _Complex, CPLX, 16,
      SWAP, 8);
BASIC(c_long_double_complex, "MPI_C_LONG_DOUBLE_COMPLEX",
      long double _Complex, CPLX, 32, UCMPI_X32_LDBL, sizeof(long double));
BASIC(packed, "MPI_PACKED", unsigned char, 0, 1, SWAP, 1);
BASIC(cxx_bool, "MPI_CXX_BOOL", _Bool, 0, 1, SWAP, 1);
BASIC(cxx_float_complex, "MPI_CXX_FLOAT_COMPLEX", float _Complex, CPLX, 8,
      SWAP, 4);
BASIC(cxx_double_complex, "MPI_CXX_DOUBLE_COMPLEX", double _Complex, CPLX,
      16, SWAP, 8);
BASIC(cxx_long_double_complex, "MPI_CXX_LONG_DOUBLE_COMPLEX",
      long double _Complex, CPLX, 32, UCMPI_X32_LDBL, sizeof(long double));
/* Fortran types, by the C type of the same size and layout. */
BASIC(integer, "MPI_INTEGER", int32_t, INTEGER, 4, SWAP, 4);
BASIC(real, "MPI_REAL", float, REAL, 4, SWAP, 4);
BASIC(double_precision, "MPI_DOUBLE_PRECISION", double, REAL, 8, SWAP, 8);
BASIC(complex, "MPI_COMPLEX", float _Complex, CPLX, 8, SWAP, 4);
BASIC(double_complex, "MPI_DOUBLE_COMPLEX", double _Complex, CPLX, 16,
      SWAP, 8);
BASIC(logical, "MPI_LOGICAL", int32_t, 0, 4, SWAP, 4);
BASIC(character, "MPI_CHARACTER", char, 0, 1, SWAP, 1);
BASIC(integer1, "MPI_INTEGER1", int8_t, INTEGER, 1, SWAP, 1);
BASIC(integer2, "MPI_INTEGER2", int16_t, INTEGER, 2, SWAP, 2);
BASIC(integer4, "MPI_INTEGER4", int32_t, INTEGER, 4, SWAP, 4);
BASIC(integer8, "MPI_INTEGER8", int64_t, INTEGER, 8, SWAP, 8);
/* optional MPI_INTEGER16 (p2p helper): gcc's 128-bit integer */
__extension__ typedef __int128 ucmpi_int128_t;
BASIC(integer16, "MPI_INTEGER16", ucmpi_int128_t, INTEGER, 16, SWAP, 16);
BASIC(real4, "MPI_REAL4", float, REAL, 4, SWAP, 4);
BASIC(real8, "MPI_REAL8", double, REAL, 8, SWAP, 8);
BASIC(real16, "MPI_REAL16", long double, REAL, 16, UCMPI_X32_LDBL,
      sizeof(long double));
BASIC(complex8, "MPI_COMPLEX8", float _Complex, CPLX, 8, SWAP, 4);
BASIC(complex16, "MPI_COMPLEX16", double _Complex, CPLX, 16, SWAP, 8);
BASIC(complex32, "MPI_COMPLEX32", long double _Complex, CPLX, 32,
      UCMPI_X32_LDBL, sizeof(long double));

/* A pair type { T1 a; T2 b; }: one block when b follows a directly. */
#define PAIR(var, str, T1, T2, dt1, dt2, x32)                               \
    struct dt_##var##_pair { T1 a; T2 b; };                                   \
    enum { dt_##var##_adj = offsetof(struct dt_##var##_pair, b) == sizeof(T1) };   \
    static ucmpi_dt_node_t dt_##var##_nodes[2] = {                            \
        {.kind = UCMPI_DTN_VEC, .span = 1, .count = 1,                   \
         .len = dt_##var##_adj ? sizeof(T1) + sizeof(T2) : sizeof(T1),        \
         .size = dt_##var##_adj ? sizeof(T1) + sizeof(T2) : sizeof(T1)},      \
        {.kind = UCMPI_DTN_VEC, .span = 1, .count = 1,                   \
         .disp = offsetof(struct dt_##var##_pair, b), .len = sizeof(T2),      \
         .size = sizeof(T2)}};                                           \
    static MPI_Datatype dt_##var##_types[2] = {&ucmpi_dt_##dt1, &ucmpi_dt_##dt2}; \
    static ucmpi_dt_impl_t dt_##var##_impl = {                                \
        .nodes = dt_##var##_nodes, .nnodes = dt_##var##_adj ? 1 : 2,               \
        .kind = UCMPI_DTK_PAIR, .combiner = MPI_COMBINER_NAMED,          \
        .align = _Alignof(struct dt_##var##_pair), .nelems = 2,          \
        .ext32_total = (x32),                                            \
        .basic = &ucmpi_dt_##var,                                        \
        .nt = 2, .types = dt_##var##_types, .name = str};                     \
    DT_OBJ(var, sizeof(T1) + sizeof(T2), sizeof(struct dt_##var##_pair),      \
           offsetof(struct dt_##var##_pair, b) + sizeof(T2),                  \
           dt_##var##_adj && sizeof(T1) + sizeof(T2) == sizeof(struct dt_##var##_pair))

PAIR(float_int, "MPI_FLOAT_INT", float, int, float, int, 8);
PAIR(double_int, "MPI_DOUBLE_INT", double, int, double, int, 12);
PAIR(long_int, "MPI_LONG_INT", long, int, long, int, 8);
PAIR(2int, "MPI_2INT", int, int, int, int, 8);
PAIR(short_int, "MPI_SHORT_INT", short, int, short, int, 6);
PAIR(long_double_int, "MPI_LONG_DOUBLE_INT", long double, int, long_double,
     int, 20);
PAIR(2integer, "MPI_2INTEGER", int32_t, int32_t, integer, integer, 8);
PAIR(2real, "MPI_2REAL", float, float, real, real, 8);
PAIR(2double_precision, "MPI_2DOUBLE_PRECISION", double, double,
     double_precision, double_precision, 16);

MPI_Datatype const ucmpi_dt_predefined[] = {
    MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_WCHAR,
    MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG,
    MPI_UNSIGNED_LONG, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT,
    MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_INT8_T, MPI_INT16_T,
    MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T,
    MPI_UINT64_T, MPI_AINT, MPI_COUNT, MPI_OFFSET, MPI_C_FLOAT_COMPLEX,
    MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_PACKED,
    MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT,
    MPI_LONG_DOUBLE_INT, MPI_CXX_BOOL, MPI_CXX_FLOAT_COMPLEX,
    MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX, MPI_INTEGER,
    MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_DOUBLE_COMPLEX,
    MPI_LOGICAL, MPI_CHARACTER, MPI_2INTEGER, MPI_2REAL,
    MPI_2DOUBLE_PRECISION, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4,
    MPI_INTEGER8, MPI_REAL4, MPI_REAL8, MPI_REAL16, MPI_COMPLEX8,
    MPI_COMPLEX16, MPI_COMPLEX32, MPI_INTEGER16, NULL};

/* MPI_Type_match_size answers with Fortran sized types. */
MPI_Datatype ucmpi_dt_match(int typeclass, int size)
{
    static MPI_Datatype const table[] = {
        MPI_REAL4, MPI_REAL8, MPI_REAL16, MPI_INTEGER1, MPI_INTEGER2,
        MPI_INTEGER4, MPI_INTEGER8, MPI_INTEGER16, MPI_COMPLEX8,
        MPI_COMPLEX16, MPI_COMPLEX32, NULL};

    for (int i = 0; table[i]; i++)
        if (ucmpi_dt_impl(table[i])->typeclass == typeclass &&
            table[i]->size == size)
            return table[i];
    return MPI_DATATYPE_NULL;
}
