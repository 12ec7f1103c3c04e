/* Keyvals: copy on dup (DUP_FN / NULL_COPY_FN / user), delete on free and
 * delete_attr, failing callbacks with ERRORS_RETURN, predefined
 * attributes, type attributes, COMM_SELF deletion order at finalize. */
#include "../mpitest.h"

static int deleted, copied, order[4], norder;

static int copy_fn(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    copied++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int del_fn(MPI_Comm c, int k, void *v, void *x)
{
    deleted++;
    return MPI_SUCCESS;
}

static int self_del(MPI_Comm c, int k, void *v, void *x)
{
    order[norder++] = (int)(long)v;
    return MPI_SUCCESS;
}

static int defused;

static int bomb(MPI_Comm c, int k, void *v, void *x)
{
    return defused ? MPI_SUCCESS : MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    int k1, k2, k3, kb, flag, *ub;
    void *v;
    MPI_Comm d;

    MPI_Init(&argc, &argv);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    MT_CHECK(flag && *ub >= 32767, "MPI_TAG_UB");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &ub, &flag);
    MT_CHECK(flag && *ub == 0, "WTIME_IS_GLOBAL");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &ub, &flag);
    MT_CHECK(flag && *ub >= 1, "UNIVERSE_SIZE");

    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_fn, &k1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &k2, NULL);
    MPI_Comm_create_keyval(copy_fn, del_fn, &k3, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    static char base[8];
    MPI_Comm_set_attr(d, k1, base);
    MPI_Comm_set_attr(d, k2, base);
    MPI_Comm_set_attr(d, k3, base);
    MPI_Comm_set_attr(d, k3, base + 2);      /* replaces: deletes old */
    MT_CHECK(deleted == 1, "replace deleted %d", deleted);
    MPI_Comm d2;
    MPI_Comm_dup(d, &d2);
    MT_CHECK(copied == 1, "copied %d", copied);
    MPI_Comm_get_attr(d2, k1, &v, &flag);
    MT_CHECK(flag && v == base, "DUP_FN value");
    MPI_Comm_get_attr(d2, k2, &v, &flag);
    MT_CHECK(!flag, "NULL_COPY_FN copied");
    MPI_Comm_get_attr(d2, k3, &v, &flag);
    MT_CHECK(flag && v == base + 3, "user copy value");
    MPI_Comm_delete_attr(d2, k1);
    MT_CHECK(deleted == 2, "delete_attr %d", deleted);
    MPI_Comm_free_keyval(&k1);               /* still used by d */
    MT_CHECK(k1 == MPI_KEYVAL_INVALID, "keyval not reset");
    MPI_Comm_free(&d2);                      /* k3 */
    MPI_Comm_free(&d);                       /* k1, k2, k3 */
    MT_CHECK(deleted == 6, "deleted %d after frees", deleted);

    /* a failing delete callback keeps the attribute and reports */
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, bomb, &kb, NULL);
    MPI_Comm_set_attr(d, kb, base);
    MT_CHECK(MPI_Comm_delete_attr(d, kb) != MPI_SUCCESS, "bomb deleted");
    MPI_Comm_get_attr(d, kb, &v, &flag);
    MT_CHECK(flag, "attribute lost after failed delete");
    MT_CHECK(MPI_Comm_get_attr(d, 12345, &v, &flag) == MPI_ERR_KEYVAL,
             "bad keyval class");
    int kt;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kt,
                           NULL);
    MT_CHECK(MPI_Comm_set_attr(d, kt, base) == MPI_ERR_KEYVAL,
             "type keyval accepted on a comm");
    MPI_Type_set_attr(MPI_INT, kt, base);
    MPI_Type_get_attr(MPI_INT, kt, &v, &flag);
    MT_CHECK(flag && v == base, "type attr");
    MPI_Type_delete_attr(MPI_INT, kt);
    MPI_Type_free_keyval(&kt);
    MPI_Comm_free_keyval(&k2);
    MPI_Comm_free_keyval(&k3);
    MPI_Comm_free_keyval(&kb);
    MT_CHECK(MPI_Comm_free(&d) != MPI_SUCCESS && d != MPI_COMM_NULL,
             "free succeeded although a delete callback failed");
    defused = 1;
    MT_CHECK_RC(MPI_Comm_free(&d));

    /* COMM_SELF: deleted newest first at finalize (checked in the
     * callback order array, printed on failure) */
    int ks;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &ks, NULL);
    int kss;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &kss, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, ks, (void *)1L);
    MPI_Comm_set_attr(MPI_COMM_SELF, kss, (void *)2L);
    MPI_Comm_free_keyval(&ks);
    MPI_Comm_free_keyval(&kss);
    int errs = mt_errors;
    MPI_Finalize();
    if (norder != 2 || order[0] != 2 || order[1] != 1) {
        fprintf(stderr, "COMM_SELF delete order wrong (%d: %d %d)\n", norder,
                order[0], order[1]);
        errs++;
    }
    return errs ? 1 : 0;
}
