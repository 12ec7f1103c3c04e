/* MPI_Session_create_errhandler and MPI_Errhandler_free may be called
 * before MPI is initialized (MPI-4.1 11.4.1; MPICH errhan/sessioncall):
 * the handler made first serves the session, with the session handle. */
#include <mpi.h>
#include <stdio.h>

static MPI_Session mine;
static int calls, bad;

static void eh(MPI_Session *s, int *code, ...)
{
    bad += *s != mine || *code != MPI_ERR_OTHER;
    calls++;
}

int main(void)
{
    MPI_Errhandler h, unused;
    int flag = 1;
    MPI_Initialized(&flag);
    if (flag || MPI_Session_create_errhandler(eh, &h) != MPI_SUCCESS ||
        MPI_Session_create_errhandler(eh, &unused) != MPI_SUCCESS ||
        MPI_Errhandler_free(&unused) != MPI_SUCCESS ||
        unused != MPI_ERRHANDLER_NULL) {
        fprintf(stderr, "handlers before initialization failed\n");
        return 1;
    }
    if (MPI_Session_init(MPI_INFO_NULL, h, &mine) != MPI_SUCCESS)
        return 1;
    MPI_Session_call_errhandler(mine, MPI_ERR_OTHER);
    MPI_Errhandler_free(&h);
    MPI_Session_finalize(&mine);
    if (calls != 1 || bad) {
        fprintf(stderr, "handler called %d times, %d wrong arguments\n",
                calls, bad);
        return 1;
    }
    return 0;
}
