/*
 * Attributes on datatypes: MPI_Type_dup runs the copy callbacks,
 * MPI_Type_free the delete callbacks (once, at the user's free, even while
 * a request still holds the type); predefined types take attributes too.
 * A failing copy callback fails the dup, which leaves MPI_DATATYPE_NULL.
 */
#include "../mpitest.h"

static int copies, deletes;

static int copy_fn(MPI_Datatype old, int kv, void *extra, void *in, void *out,
                   int *flag)
{
    (void)old;
    (void)kv;
    (void)extra;
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_fail_fn(MPI_Datatype old, int kv, void *extra, void *in,
                        void *out, int *flag)
{
    (void)old;
    (void)kv;
    (void)extra;
    (void)in;
    (void)out;
    *flag = 1;
    return MPI_ERR_OTHER;
}

static int delete_fn(MPI_Datatype t, int kv, void *val, void *extra)
{
    (void)t;
    (void)kv;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int kv, flag, rank, size;
    void *val;
    MPI_Datatype v, d;
    static char base[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_Type_create_keyval(copy_fn, delete_fn, &kv, NULL));
    MPI_Type_vector(3, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    MT_CHECK_RC(MPI_Type_set_attr(v, kv, base));
    MT_CHECK_RC(MPI_Type_dup(v, &d));
    MT_CHECK(copies == 1, "copy callbacks: %d", copies);
    MPI_Type_get_attr(d, kv, &val, &flag);
    MT_CHECK(flag && val == base + 1, "dup's attribute %p (flag %d)", val,
             flag);
    /* free while a receive still uses the type: delete runs now, once */
    int buf[6] = {0}, src[3] = {1, 2, 3};
    MPI_Request r;
    MPI_Irecv(buf, 1, d, rank, 1, MPI_COMM_SELF, &r);
    MT_CHECK_RC(MPI_Type_free(&d));
    MT_CHECK(deletes == 1, "delete callbacks after free: %d", deletes);
    MPI_Send(src, 3, MPI_INT, rank, 1, MPI_COMM_SELF);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MT_CHECK(buf[0] == 1 && buf[2] == 2 && buf[4] == 3 && buf[1] == 0,
             "received %d %d %d", buf[0], buf[2], buf[4]);
    MT_CHECK(deletes == 1, "delete callbacks after completion: %d", deletes);
    MT_CHECK_RC(MPI_Type_free(&v));
    MT_CHECK(deletes == 2, "delete callbacks: %d", deletes);
    /* a predefined type holds attributes as well */
    MT_CHECK_RC(MPI_Type_set_attr(MPI_DOUBLE, kv, base + 2));
    MPI_Type_get_attr(MPI_DOUBLE, kv, &val, &flag);
    MT_CHECK(flag && val == base + 2, "attribute on MPI_DOUBLE");
    MPI_Type_delete_attr(MPI_DOUBLE, kv);
    MPI_Type_free_keyval(&kv);
    /* a failing copy callback: an error, and no half-made type */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK_RC(MPI_Type_create_keyval(copy_fail_fn, delete_fn, &kv, NULL));
    MPI_Type_contiguous(2, MPI_INT, &v);
    MT_CHECK_RC(MPI_Type_set_attr(v, kv, base));
    d = v;   /* anything but MPI_DATATYPE_NULL */
    int rc = MPI_Type_dup(v, &d);
    MT_CHECK(rc != MPI_SUCCESS, "dup succeeded with a failing copy callback");
    MT_CHECK(d == MPI_DATATYPE_NULL, "a failed dup left %p", (void *)d);
    MT_CHECK_RC(MPI_Type_free(&v));
    MPI_Type_free_keyval(&kv);
    return mt_finish();
}
