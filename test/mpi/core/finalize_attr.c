/* MPI_Finalize deletes MPI_COMM_SELF's attributes first, while
 * MPI_Finalized still says false (MPI-4.1 11.2.2; MPICH attr/attrend2),
 * newest first; the callbacks may still communicate. */
#include "../mpitest.h"

static int calls, finalized_seen = -1, order_ok = 1, last = 99, sum = -1;

static int del(MPI_Comm comm, int keyval, void *val, void *extra)
{
    int idx = (int)(intptr_t)val, one = 1;
    (void)comm; (void)keyval; (void)extra;
    MPI_Finalized(&finalized_seen);
    if (finalized_seen)
        return MPI_ERR_OTHER;
    order_ok &= idx < last;   /* newest first */
    last = idx;
    calls++;
    if (idx == 0)             /* still usable: a collective on the world */
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int keys[3], size, flag = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 3; i++) {
        MT_CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del,
                                           &keys[i], NULL));
        MT_CHECK_RC(MPI_Comm_set_attr(MPI_COMM_SELF, keys[i],
                                      (void *)(intptr_t)i));
    }
    int errors = mt_errors;
    MPI_Finalize();
    MPI_Finalized(&flag);
    if (calls != 3 || finalized_seen != 0 || !order_ok || sum != size ||
        flag != 1 || errors) {
        fprintf(stderr, "calls %d, MPI_Finalized in callback %d, order %d, "
                "allreduce %d (size %d), after %d\n", calls, finalized_seen,
                order_ok, sum, size, flag);
        return 1;
    }
    return 0;
}
