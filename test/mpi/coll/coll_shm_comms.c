/*
 * Communicators created and freed in a loop, a few alive at once, each
 * running small collectives (the shm path sets up a segment per comm):
 * results stay right, no segment name stays in /dev/shm (names are
 * unlinked once every rank mapped them) and no mapping outlives its comm.
 */
#include "../mpitest.h"

#include <dirent.h>
#include <string.h>
#include <unistd.h>

#define ITERS 300
#define LIVE 4

/* Segment names this process created that are still linked. */
static int linked_segments(void)
{
    char prefix[64];
    int n = 0;
    DIR *d = opendir("/dev/shm");
    struct dirent *e;

    if (d == NULL)
        return 0;
    snprintf(prefix, sizeof(prefix), "ucmpi-coll-%d-", (int)getpid());
    while ((e = readdir(d)) != NULL)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* Collective segments mapped into this process. */
static int mapped_segments(void)
{
    char line[512];
    int n = 0;
    FILE *f = fopen("/proc/self/maps", "r");

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f))
        n += strstr(line, "/ucmpi-coll-") != NULL;
    fclose(f);
    return n;
}

static void use(MPI_Comm c, int it)
{
    int n, me, x, sum = -1, b = -1;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &me);
    x = me + it;
    MT_CHECK_RC(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(sum == n * it + n * (n - 1) / 2, "it %d sum %d", it, sum);
    if (me == n - 1)
        b = it;
    MT_CHECK_RC(MPI_Bcast(&b, 1, MPI_INT, n - 1, c));
    MT_CHECK(b == it, "it %d bcast %d", it, b);
    MT_CHECK_RC(MPI_Barrier(c));
}

int main(int argc, char **argv)
{
    MPI_Comm live[LIVE];
    int rank, base;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    use(MPI_COMM_WORLD, 0);
    base = mapped_segments();          /* MPI_COMM_WORLD's, if any */
    for (int i = 0; i < LIVE; i++)
        live[i] = MPI_COMM_NULL;
    for (int it = 0; it < ITERS; it++) {
        MPI_Comm *c = &live[it % LIVE];
        if (*c != MPI_COMM_NULL)
            MPI_Comm_free(c);
        if (it % 2)
            MPI_Comm_dup(MPI_COMM_WORLD, c);
        else
            MPI_Comm_split(MPI_COMM_WORLD, (rank + it) % 3, rank, c);
        use(*c, it);
        MT_CHECK(linked_segments() == 0, "it %d: %d segment names left",
                 it, linked_segments());
        MT_CHECK(mapped_segments() <= base + LIVE, "it %d: %d mapped", it,
                 mapped_segments());
    }
    for (int i = 0; i < LIVE; i++)
        if (live[i] != MPI_COMM_NULL)
            MPI_Comm_free(&live[i]);
    MT_CHECK(mapped_segments() == base, "%d segments mapped after the frees "
             "(%d before)", mapped_segments(), base);
    MT_CHECK(linked_segments() == 0, "segment names left");
    return mt_finish();
}
