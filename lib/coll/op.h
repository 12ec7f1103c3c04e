/* Reduction operations, internal view: predefined op ids, kernel element
 * types and table (op.c maps handles onto them, op_kernels.c the loops). */
#ifndef UCMPI_COLL_OP_H
#define UCMPI_COLL_OP_H

#include "core/base.h"
struct ucmpi_op_s {
    uint32_t magic;
    int refcount;
    int predefined;
    int commute;
    int id;                   /* predefined: index of the op; user: -1 */
    MPI_User_function *user_fn;
    /* ---- added by ops (lib/coll/op*.c) ---- */
    MPI_User_function_c *user_fn_c;   /* MPI_Op_create_c */
};
typedef struct ucmpi_op_s ucmpi_op_t;

/* References of operations in flight (a nonblocking or persistent call keeps
 * its user op alive after MPI_Op_free); no-ops on predefined ops. */
void ucmpi_op_retain(MPI_Op op);
void ucmpi_op_release(MPI_Op op);

/* inout[i] = in[i] op inout[i] for count elements of dt (dt may be a
 * derived type of a single basic type, as the standard allows). */
int ucmpi_op_apply(MPI_Op op, const void *in, void *inout, MPI_Count count,
                   MPI_Datatype dt);
/* out = a op b (contiguous dt, out overlapping neither): one pass fewer than
 * copy + ucmpi_op_apply where the result needs a third buffer. */
int ucmpi_op_apply3(MPI_Op op, const void *a, const void *b, void *out,
                    MPI_Count count, MPI_Datatype dt);
/* MPI_SUCCESS, or MPI_ERR_OP with *why when op is null/freed or not
 * defined on dt. */
int ucmpi_op_check(MPI_Op op, MPI_Datatype dt, const char **why);

#include <stddef.h>

/* Predefined ops, in the order of ucmpi_op_s.id. */
enum {
    UCMPI_OP_MAX, UCMPI_OP_MIN, UCMPI_OP_SUM, UCMPI_OP_PROD,
    UCMPI_OP_LAND, UCMPI_OP_BAND, UCMPI_OP_LOR, UCMPI_OP_BOR,
    UCMPI_OP_LXOR, UCMPI_OP_BXOR, UCMPI_OP_MINLOC, UCMPI_OP_MAXLOC,
    UCMPI_OP_REPLACE, UCMPI_OP_NO_OP,
    UCMPI_OP_NUM
};

/* Kernel element types: every predefined type maps onto one (C integers by
 * width and sign, so MPI_LONG and MPI_INT64_T share the I64 kernels). */
enum {
    UCMPI_OPT_NONE,           /* not reducible (MPI_CHAR, MPI_PACKED...) */
    UCMPI_OPT_I8, UCMPI_OPT_I16, UCMPI_OPT_I32, UCMPI_OPT_I64,
    UCMPI_OPT_U8, UCMPI_OPT_U16, UCMPI_OPT_U32, UCMPI_OPT_U64,
    UCMPI_OPT_FLOAT, UCMPI_OPT_DOUBLE, UCMPI_OPT_LDOUBLE,
    UCMPI_OPT_CFLOAT, UCMPI_OPT_CDOUBLE, UCMPI_OPT_CLDOUBLE,
    UCMPI_OPT_BOOL,           /* C _Bool / C++ bool (1 byte) */
    UCMPI_OPT_LOGICAL,        /* Fortran LOGICAL (int, nonzero = true) */
    UCMPI_OPT_FLOAT_INT, UCMPI_OPT_DOUBLE_INT, UCMPI_OPT_LONG_INT,
    UCMPI_OPT_2INT, UCMPI_OPT_SHORT_INT, UCMPI_OPT_LDOUBLE_INT,
    UCMPI_OPT_2FLOAT, UCMPI_OPT_2DOUBLE,   /* MPI_2REAL, 2DOUBLE_PRECISION */
    UCMPI_OPT_NUM
};

/* Type classes of the standard's table of (op, type) pairs (MPI-4.1
 * section 6.9.2), one bit each. */
enum {
    UCMPI_OPC_CINT = 1 << 0,     /* C integer */
    UCMPI_OPC_FINT = 1 << 1,     /* Fortran integer */
    UCMPI_OPC_FLOAT = 1 << 2,    /* floating point */
    UCMPI_OPC_LOGICAL = 1 << 3,  /* C_BOOL, CXX_BOOL, LOGICAL */
    UCMPI_OPC_COMPLEX = 1 << 4,
    UCMPI_OPC_BYTE = 1 << 5,
    UCMPI_OPC_MULTI = 1 << 6,    /* MPI_AINT, MPI_OFFSET, MPI_COUNT */
    UCMPI_OPC_PAIR = 1 << 7      /* MINLOC/MAXLOC pair types */
};

/* inout[i] = in[i] op inout[i] for n elements. */
typedef void ucmpi_op_kernel_t(const void *in, void *inout, size_t n);

/* The kernel for (op, type), or NULL when the pair has none (REPLACE and
 * NO_OP are handled by the caller). */
ucmpi_op_kernel_t *ucmpi_op_kernel(int op, int type);

/* out[i] = a[i] op b[i] for n elements (out may not overlap a or b). */
typedef void ucmpi_op_kernel3_t(const void *a, const void *b, void *out,
                                size_t n);
ucmpi_op_kernel3_t *ucmpi_op_kernel3(int op, int type);

#endif
