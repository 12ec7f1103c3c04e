/* MPI_Op_create(_c), MPI_Op_free, MPI_Op_commutative, MPI_Reduce_local(_c). */
#include "core/errhandler.h"
#include "datatype/datatype.h"
#include "coll/op.h"
#include "coll/alias.h"

#include <stdlib.h>

#define op_err(code, fn, ...) \
    ucmpi_error(UCMPI_OBJ_NONE, NULL, (code), (fn), __VA_ARGS__)

static int op_create(MPI_User_function *fn, MPI_User_function_c *fn_c,
                     int commute, MPI_Op *op, const char *name)
{
    int rc = ucmpi_check_initialized(name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!fn && !fn_c)
        return op_err(MPI_ERR_ARG, name, "user_fn is NULL");
    if (!op)
        return op_err(MPI_ERR_ARG, name, "op (output) is NULL");

    ucmpi_op_t *o = calloc(1, sizeof(*o));
    if (!o)
        return op_err(MPI_ERR_NO_MEM, name, "no memory for a new op");
    o->magic = UCMPI_MAGIC_OP;
    o->refcount = 1;
    o->commute = commute != 0;
    o->id = -1;
    o->user_fn = fn;
    o->user_fn_c = fn_c;
    *op = o;
    return MPI_SUCCESS;
}

#pragma weak MPI_Op_create = PMPI_Op_create
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return op_create(user_fn, NULL, commute, op, "MPI_Op_create");
}

#pragma weak MPI_Op_create_c = PMPI_Op_create_c
int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return op_create(NULL, user_fn, commute, op, "MPI_Op_create_c");
}

#pragma weak MPI_Op_free = PMPI_Op_free
int PMPI_Op_free(MPI_Op *op)
{
    static const char fn[] = "MPI_Op_free";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!op)
        return op_err(MPI_ERR_ARG, fn, "op is a NULL pointer");
    if (*op == MPI_OP_NULL || (*op)->magic != UCMPI_MAGIC_OP)
        return op_err(MPI_ERR_OP, fn, "op is %s",
                      *op == MPI_OP_NULL ? "MPI_OP_NULL" : "not a live op");
    if ((*op)->predefined)
        return op_err(MPI_ERR_OP, fn, "op is predefined and cannot be freed");
    /* Operations in flight hold their own reference. */
    ucmpi_op_release(*op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Op_commutative = PMPI_Op_commutative
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    static const char fn[] = "MPI_Op_commutative";
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (op == MPI_OP_NULL || op->magic != UCMPI_MAGIC_OP)
        return op_err(MPI_ERR_OP, fn, "op is %s",
                      op == MPI_OP_NULL ? "MPI_OP_NULL" : "not a live op");
    if (!commute)
        return op_err(MPI_ERR_ARG, fn, "commute is a NULL pointer");
    *commute = op->commute;
    return MPI_SUCCESS;
}

static int reduce_local(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype dt, MPI_Op op, const char *fn)
{
    const char *why = NULL;
    int rc = ucmpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return op_err(MPI_ERR_COUNT, fn, "count is negative (%lld)",
                      (long long)count);
    rc = ucmpi_dt_check(dt, 1, &why);
    if (rc != MPI_SUCCESS)
        return op_err(rc, fn, "datatype: %s", why);
    rc = ucmpi_op_check(op, dt, &why);
    if (rc != MPI_SUCCESS)
        return op_err(rc, fn, "op: %s", why);
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return op_err(MPI_ERR_OP, fn, "MPI_REPLACE and MPI_NO_OP are for "
                      "accumulate operations only");
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return op_err(MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed");
    if (count > 0 && dt->predefined && (!inbuf || !inoutbuf))
        return op_err(MPI_ERR_BUFFER, fn, "%s is NULL with count %lld",
                      !inbuf ? "inbuf" : "inoutbuf", (long long)count);
    if (ucmpi_coll_alias1(inbuf, count, dt, inoutbuf, count, dt))
        return op_err(MPI_ERR_BUFFER, fn, "inbuf and inoutbuf overlap "
                      "(aliasing is not allowed)");
    rc = ucmpi_op_apply(op, inbuf, inoutbuf, count, dt);
    if (rc != MPI_SUCCESS)
        return op_err(rc, fn, "the reduction failed");
    return MPI_SUCCESS;
}

#pragma weak MPI_Reduce_local = PMPI_Reduce_local
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                      MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local(inbuf, inoutbuf, count, datatype, op,
                        "MPI_Reduce_local");
}

#pragma weak MPI_Reduce_local_c = PMPI_Reduce_local_c
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local(inbuf, inoutbuf, count, datatype, op,
                        "MPI_Reduce_local_c");
}
