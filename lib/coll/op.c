/* Reduction operations: predefined ops, the (op, type) pairs MPI-4.1 6.9.2
 * allows, and ucmpi_op_apply() over basic, one-basic derived or user ops. */
#include "datatype/datatype.h"
#include "coll/op.h"

#include <stdlib.h>
#include <string.h>
#include <limits.h>

#define PREDEF_OP(name, ID, COMMUTE) \
    UCMPI_PREDEFINED(struct ucmpi_op_s, ucmpi_op_##name, UCMPI_PAD_OP) = { \
        .obj = {.magic = UCMPI_MAGIC_OP, .refcount = 1, .predefined = 1, \
                .commute = COMMUTE, .id = ID}}

PREDEF_OP(max, UCMPI_OP_MAX, 1);
PREDEF_OP(min, UCMPI_OP_MIN, 1);
PREDEF_OP(sum, UCMPI_OP_SUM, 1);
PREDEF_OP(prod, UCMPI_OP_PROD, 1);
PREDEF_OP(land, UCMPI_OP_LAND, 1);
PREDEF_OP(band, UCMPI_OP_BAND, 1);
PREDEF_OP(lor, UCMPI_OP_LOR, 1);
PREDEF_OP(bor, UCMPI_OP_BOR, 1);
PREDEF_OP(lxor, UCMPI_OP_LXOR, 1);
PREDEF_OP(bxor, UCMPI_OP_BXOR, 1);
PREDEF_OP(minloc, UCMPI_OP_MINLOC, 1);
PREDEF_OP(maxloc, UCMPI_OP_MAXLOC, 1);
/* REPLACE keeps the left operand: not commutative (RMA only). */
PREDEF_OP(replace, UCMPI_OP_REPLACE, 0);
PREDEF_OP(no_op, UCMPI_OP_NO_OP, 0);

/* Which type classes each op is defined on, and the reason given when a
 * type is outside them. REPLACE/NO_OP (accumulates) take any type. */
static const struct {
    unsigned classes;
    const char *why;
} op_rules[UCMPI_OP_NUM] = {
#define NUMERIC (UCMPI_OPC_CINT | UCMPI_OPC_FINT | UCMPI_OPC_FLOAT | \
                 UCMPI_OPC_MULTI)
    [UCMPI_OP_MAX] = { NUMERIC, "MPI_MAX is defined only on integer and "
                       "floating point types" },
    [UCMPI_OP_MIN] = { NUMERIC, "MPI_MIN is defined only on integer and "
                       "floating point types" },
    [UCMPI_OP_SUM] = { NUMERIC | UCMPI_OPC_COMPLEX, "MPI_SUM is defined only "
                       "on integer, floating point and complex types" },
    [UCMPI_OP_PROD] = { NUMERIC | UCMPI_OPC_COMPLEX, "MPI_PROD is defined "
                        "only on integer, floating point and complex types" },
/* MPI_AINT, MPI_OFFSET and MPI_COUNT (multi-language) are accepted as an
 * extension: MPICH allows them and its coll/allred test uses them */
#define LOGICAL (UCMPI_OPC_CINT | UCMPI_OPC_LOGICAL | UCMPI_OPC_MULTI)
    [UCMPI_OP_LAND] = { LOGICAL, "MPI_LAND is defined only on C integer and "
                        "logical types" },
    [UCMPI_OP_LOR] = { LOGICAL, "MPI_LOR is defined only on C integer and "
                       "logical types" },
    [UCMPI_OP_LXOR] = { LOGICAL, "MPI_LXOR is defined only on C integer and "
                        "logical types" },
#define BITS (UCMPI_OPC_CINT | UCMPI_OPC_FINT | UCMPI_OPC_BYTE | \
              UCMPI_OPC_MULTI)
    [UCMPI_OP_BAND] = { BITS, "MPI_BAND is defined only on integer types "
                        "and MPI_BYTE" },
    [UCMPI_OP_BOR] = { BITS, "MPI_BOR is defined only on integer types and "
                       "MPI_BYTE" },
    [UCMPI_OP_BXOR] = { BITS, "MPI_BXOR is defined only on integer types "
                        "and MPI_BYTE" },
    [UCMPI_OP_MINLOC] = { UCMPI_OPC_PAIR, "MPI_MINLOC is defined only on the "
                          "pair types (MPI_DOUBLE_INT, MPI_2INT, ...)" },
    [UCMPI_OP_MAXLOC] = { UCMPI_OPC_PAIR, "MPI_MAXLOC is defined only on the "
                          "pair types (MPI_DOUBLE_INT, MPI_2INT, ...)" },
    [UCMPI_OP_REPLACE] = { ~0u, NULL },
    [UCMPI_OP_NO_OP] = { ~0u, NULL },
};

/* Kernel type of a signed/unsigned integer of `size` bytes. */
#define SINT(size) ((size) == 1 ? UCMPI_OPT_I8 : (size) == 2 ? UCMPI_OPT_I16 \
                    : (size) == 4 ? UCMPI_OPT_I32 : UCMPI_OPT_I64)
#define UINT(size) ((size) == 1 ? UCMPI_OPT_U8 : (size) == 2 ? UCMPI_OPT_U16 \
                    : (size) == 4 ? UCMPI_OPT_U32 : UCMPI_OPT_U64)

/* Every predefined type: its kernel type and class.  The types used most
 * in reductions come first (the lookup is a linear scan). */
typedef struct {
    MPI_Datatype dt;
    unsigned char type;
    unsigned char cls;
} op_type_t;

static const op_type_t op_types[] = {
    { MPI_DOUBLE, UCMPI_OPT_DOUBLE, UCMPI_OPC_FLOAT },
    { MPI_FLOAT, UCMPI_OPT_FLOAT, UCMPI_OPC_FLOAT },
    { MPI_INT, SINT(sizeof(int)), UCMPI_OPC_CINT },
    { MPI_LONG, SINT(sizeof(long)), UCMPI_OPC_CINT },
    { MPI_UNSIGNED, UINT(sizeof(unsigned)), UCMPI_OPC_CINT },
    { MPI_UNSIGNED_LONG, UINT(sizeof(long)), UCMPI_OPC_CINT },
    { MPI_LONG_LONG, SINT(sizeof(long long)), UCMPI_OPC_CINT },
    { MPI_UNSIGNED_LONG_LONG, UINT(sizeof(long long)), UCMPI_OPC_CINT },
    { MPI_SHORT, SINT(sizeof(short)), UCMPI_OPC_CINT },
    { MPI_UNSIGNED_SHORT, UINT(sizeof(short)), UCMPI_OPC_CINT },
    { MPI_SIGNED_CHAR, UCMPI_OPT_I8, UCMPI_OPC_CINT },
    { MPI_UNSIGNED_CHAR, UCMPI_OPT_U8, UCMPI_OPC_CINT },
    { MPI_INT8_T, UCMPI_OPT_I8, UCMPI_OPC_CINT },
    { MPI_INT16_T, UCMPI_OPT_I16, UCMPI_OPC_CINT },
    { MPI_INT32_T, UCMPI_OPT_I32, UCMPI_OPC_CINT },
    { MPI_INT64_T, UCMPI_OPT_I64, UCMPI_OPC_CINT },
    { MPI_UINT8_T, UCMPI_OPT_U8, UCMPI_OPC_CINT },
    { MPI_UINT16_T, UCMPI_OPT_U16, UCMPI_OPC_CINT },
    { MPI_UINT32_T, UCMPI_OPT_U32, UCMPI_OPC_CINT },
    { MPI_UINT64_T, UCMPI_OPT_U64, UCMPI_OPC_CINT },
    { MPI_AINT, SINT(sizeof(MPI_Aint)), UCMPI_OPC_MULTI },
    { MPI_OFFSET, SINT(sizeof(MPI_Offset)), UCMPI_OPC_MULTI },
    { MPI_COUNT, SINT(sizeof(MPI_Count)), UCMPI_OPC_MULTI },
    { MPI_LONG_DOUBLE, UCMPI_OPT_LDOUBLE, UCMPI_OPC_FLOAT },
    { MPI_C_FLOAT_COMPLEX, UCMPI_OPT_CFLOAT, UCMPI_OPC_COMPLEX },
    { MPI_C_DOUBLE_COMPLEX, UCMPI_OPT_CDOUBLE, UCMPI_OPC_COMPLEX },
    { MPI_C_LONG_DOUBLE_COMPLEX, UCMPI_OPT_CLDOUBLE, UCMPI_OPC_COMPLEX },
    { MPI_CXX_FLOAT_COMPLEX, UCMPI_OPT_CFLOAT, UCMPI_OPC_COMPLEX },
    { MPI_CXX_DOUBLE_COMPLEX, UCMPI_OPT_CDOUBLE, UCMPI_OPC_COMPLEX },
    { MPI_CXX_LONG_DOUBLE_COMPLEX, UCMPI_OPT_CLDOUBLE, UCMPI_OPC_COMPLEX },
    { MPI_C_BOOL, UCMPI_OPT_BOOL, UCMPI_OPC_LOGICAL },
    { MPI_CXX_BOOL, UCMPI_OPT_BOOL, UCMPI_OPC_LOGICAL },
    { MPI_BYTE, UCMPI_OPT_U8, UCMPI_OPC_BYTE },
    { MPI_DOUBLE_INT, UCMPI_OPT_DOUBLE_INT, UCMPI_OPC_PAIR },
    { MPI_2INT, UCMPI_OPT_2INT, UCMPI_OPC_PAIR },
    { MPI_FLOAT_INT, UCMPI_OPT_FLOAT_INT, UCMPI_OPC_PAIR },
    { MPI_LONG_INT, UCMPI_OPT_LONG_INT, UCMPI_OPC_PAIR },
    { MPI_SHORT_INT, UCMPI_OPT_SHORT_INT, UCMPI_OPC_PAIR },
    { MPI_LONG_DOUBLE_INT, UCMPI_OPT_LDOUBLE_INT, UCMPI_OPC_PAIR },
    /* Fortran types, as the C side sees them (INTEGER = int, REAL =
     * float, DOUBLE PRECISION = double, LOGICAL = int). */
    { MPI_INTEGER, SINT(sizeof(int)), UCMPI_OPC_FINT },
    { MPI_INTEGER1, UCMPI_OPT_I8, UCMPI_OPC_FINT },
    { MPI_INTEGER2, UCMPI_OPT_I16, UCMPI_OPC_FINT },
    { MPI_INTEGER4, UCMPI_OPT_I32, UCMPI_OPC_FINT },
    { MPI_INTEGER8, UCMPI_OPT_I64, UCMPI_OPC_FINT },
    { MPI_REAL, UCMPI_OPT_FLOAT, UCMPI_OPC_FLOAT },
    { MPI_DOUBLE_PRECISION, UCMPI_OPT_DOUBLE, UCMPI_OPC_FLOAT },
    { MPI_REAL4, UCMPI_OPT_FLOAT, UCMPI_OPC_FLOAT },
    { MPI_REAL8, UCMPI_OPT_DOUBLE, UCMPI_OPC_FLOAT },
    { MPI_COMPLEX, UCMPI_OPT_CFLOAT, UCMPI_OPC_COMPLEX },
    { MPI_DOUBLE_COMPLEX, UCMPI_OPT_CDOUBLE, UCMPI_OPC_COMPLEX },
    { MPI_COMPLEX8, UCMPI_OPT_CFLOAT, UCMPI_OPC_COMPLEX },
    { MPI_COMPLEX16, UCMPI_OPT_CDOUBLE, UCMPI_OPC_COMPLEX },
    { MPI_LOGICAL, UCMPI_OPT_LOGICAL, UCMPI_OPC_LOGICAL },
    { MPI_2INTEGER, UCMPI_OPT_2INT, UCMPI_OPC_PAIR },
    { MPI_2REAL, UCMPI_OPT_2FLOAT, UCMPI_OPC_PAIR },
    { MPI_2DOUBLE_PRECISION, UCMPI_OPT_2DOUBLE, UCMPI_OPC_PAIR },
    /* MPI_CHAR, WCHAR, CHARACTER (printable), PACKED, REAL16, COMPLEX32 (no C
     * type) are in no reduction class: only REPLACE and NO_OP take them. */
};

static const op_type_t *op_type_lookup(MPI_Datatype dt)
{
    for (size_t i = 0; i < sizeof(op_types) / sizeof(op_types[0]); i++)
        if (op_types[i].dt == dt)
            return &op_types[i];
    return NULL;
}

/* The one basic type of dt (NULL: mixed), kept by the datatype engine: O(1)
 * and right for f90 and large-count types, unlike envelope walking. */
static MPI_Datatype op_basic_of(MPI_Datatype dt)
{
    if (dt->predefined && op_type_lookup(dt))
        return dt;   /* f90 types are "predefined" wrappers: resolve them */
    return ucmpi_dt_basic(dt, NULL);
}

static bool op_valid(MPI_Op op)
{
    return op != MPI_OP_NULL && op->magic == UCMPI_MAGIC_OP;
}

int ucmpi_op_check(MPI_Op op, MPI_Datatype dt, const char **why)
{
    if (op == MPI_OP_NULL) {
        *why = "the op is MPI_OP_NULL";
        return MPI_ERR_OP;
    }
    if (!op_valid(op)) {
        *why = "the op was freed or is not an op";
        return MPI_ERR_OP;
    }
    if (!op->predefined || op_rules[op->id].classes == ~0u)
        return MPI_SUCCESS;

    MPI_Datatype basic = op_basic_of(dt);
    const op_type_t *t = basic ? op_type_lookup(basic) : NULL;
    if (!basic) {
        *why = "predefined ops apply only to types made of one basic type";
        return MPI_ERR_OP;
    }
    if (!t || !(t->cls & op_rules[op->id].classes)) {
        *why = op_rules[op->id].why;
        return MPI_ERR_OP;
    }
    return MPI_SUCCESS;
}

/* Calls a user function in chunks its int length can express. */
static void op_apply_user(MPI_Op op, const void *in, void *inout,
                          MPI_Count count, MPI_Datatype dt)
{
    const MPI_Count chunk_max = INT_MAX;
    MPI_Count done = 0;

    while (done < count) {
        MPI_Count n = count - done < chunk_max ? count - done : chunk_max;
        MPI_Aint off = (MPI_Aint)(done * dt->extent);
        MPI_Datatype d = dt;
        if (op->user_fn_c) {
            op->user_fn_c((char *)in + off, (char *)inout + off, &n, &d);
        } else {
            int len = (int)n;
            op->user_fn((char *)in + off, (char *)inout + off, &len, &d);
        }
        done += n;
    }
}

/* A derived type of one basic type: the kernel runs over packed copies, the
 * result unpacked into inout; REPLACE (kern NULL) copies in's data. */
static int op_apply_derived(ucmpi_op_kernel_t *kern, int id,
                            MPI_Datatype basic, const void *in, void *inout,
                            MPI_Count count, MPI_Datatype dt)
{
    size_t bytes = (size_t)(count * dt->size);
    size_t n = basic->size ? bytes / (size_t)basic->size : 0;
    bool padded = kern && basic->size != basic->extent;   /* pair types */
    size_t tmp_bytes = padded ? n * (size_t)basic->extent : bytes;
    char *pin = malloc(bytes ? bytes : 1);
    char *pio = malloc(bytes ? bytes : 1);
    char *tin = padded ? malloc(tmp_bytes ? tmp_bytes : 1) : pin;
    char *tio = padded ? malloc(tmp_bytes ? tmp_bytes : 1) : pio;
    int rc = MPI_ERR_NO_MEM;

    if (!pin || !pio || !tin || !tio)
        goto out_free;
    ucmpi_dt_pack(dt, in, count, pin);
    if (id != UCMPI_OP_REPLACE) {
        ucmpi_dt_pack(dt, inout, count, pio);
        if (padded) {
            ucmpi_dt_unpack(basic, tin, (MPI_Count)n, pin, bytes);
            ucmpi_dt_unpack(basic, tio, (MPI_Count)n, pio, bytes);
        }
        kern(tin, tio, n);
        if (padded)
            ucmpi_dt_pack(basic, tio, (MPI_Count)n, pio);
    } else {
        memcpy(pio, pin, bytes);
    }
    ucmpi_dt_unpack(dt, inout, count, pio, bytes);
    rc = MPI_SUCCESS;
out_free:
    if (padded) {
        free(tio);
        free(tin);
    }
    free(pio);
    free(pin);
    return rc;
}

int ucmpi_op_apply(MPI_Op op, const void *in, void *inout, MPI_Count count,
                   MPI_Datatype dt)
{
    if (!op_valid(op))
        return MPI_ERR_OP;
    if (count <= 0)
        return MPI_SUCCESS;
    if (!op->predefined) {
        op_apply_user(op, in, inout, count, dt);
        return MPI_SUCCESS;
    }
    if (op->id == UCMPI_OP_NO_OP)
        return MPI_SUCCESS;

    const op_type_t *t = op_type_lookup(dt);
    if (t) {   /* predefined type: the common, fast case */
        if (op->id == UCMPI_OP_REPLACE) {
            memmove(inout, in, (size_t)(count * dt->extent));
            return MPI_SUCCESS;
        }
        ucmpi_op_kernel_t *kern = ucmpi_op_kernel(op->id, t->type);
        if (!kern || !(t->cls & op_rules[op->id].classes))
            return MPI_ERR_OP;
        kern(in, inout, (size_t)count);
        return MPI_SUCCESS;
    }

    if (op->id == UCMPI_OP_REPLACE)   /* any derived type: copy the data */
        return op_apply_derived(NULL, op->id, dt, in, inout, count, dt);

    MPI_Datatype basic = op_basic_of(dt);
    t = basic ? op_type_lookup(basic) : NULL;
    if (!t)
        return MPI_ERR_OP;
    ucmpi_op_kernel_t *kern = ucmpi_op_kernel(op->id, t->type);
    if (!kern || !(t->cls & op_rules[op->id].classes))
        return MPI_ERR_OP;
    if (dt->contig && basic->size == basic->extent) {
        /* contiguous: run in place over the data */
        size_t n = (size_t)(count * dt->size / basic->size);
        kern((const char *)in + dt->true_lb, (char *)inout + dt->true_lb, n);
        return MPI_SUCCESS;
    }
    return op_apply_derived(kern, op->id, basic, in, inout, count, dt);
}

/* A predefined op on a predefined type has a three-operand kernel; the
 * rest (user ops, derived types) copies b to out and reduces a into it. */
int ucmpi_op_apply3(MPI_Op op, const void *a, const void *b, void *out,
                    MPI_Count count, MPI_Datatype dt)
{
    const op_type_t *t;

    if (!op_valid(op))
        return MPI_ERR_OP;
    if (count <= 0)
        return MPI_SUCCESS;
    if (op->predefined && op->id != UCMPI_OP_REPLACE &&
        op->id != UCMPI_OP_NO_OP && (t = op_type_lookup(dt)) != NULL) {
        ucmpi_op_kernel3_t *kern = ucmpi_op_kernel3(op->id, t->type);
        if (!kern || !(t->cls & op_rules[op->id].classes))
            return MPI_ERR_OP;
        kern(a, b, out, (size_t)count);
        return MPI_SUCCESS;
    }
    memcpy((char *)out + dt->true_lb, (const char *)b + dt->true_lb,
           (size_t)(count * dt->size));
    return ucmpi_op_apply(op, a, out, count, dt);
}

void ucmpi_op_retain(MPI_Op op)
{
    if (!op->predefined)
        __atomic_add_fetch(&op->refcount, 1, __ATOMIC_RELAXED);
}

void ucmpi_op_release(MPI_Op op)
{
    if (op->predefined)
        return;
    if (__atomic_sub_fetch(&op->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        op->magic = UCMPI_MAGIC_FREED;
        free(op);
    }
}
