/* 1000 communicators created and freed (dup, split, create) without
 * running out of context ids or growing memory; 100 kept alive at once. */
#include "../mpitest.h"
#include <stdio.h>
#include <string.h>

static long rss_kb(void)
{
    char line[256];
    long kb = 0;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            sscanf(line + 6, "%ld", &kb);
    if (f)
        fclose(f);
    return kb;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm c, keep[100];
    MPI_Group g;
    long before = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    for (int i = 0; i < 1000; i++) {
        if (i == 100)
            before = rss_kb();
        switch (i % 3) {
        case 0: MT_CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c)); break;
        case 1: MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, i, &c));
            break;
        default: MT_CHECK_RC(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
        }
        MT_CHECK_RC(MPI_Comm_free(&c));
    }
    long after = rss_kb();
    MT_CHECK(after - before < 2048, "RSS grew by %ld kB", after - before);
    for (int i = 0; i < 100; i++)
        MT_CHECK_RC(MPI_Comm_dup(i ? keep[i - 1] : MPI_COMM_WORLD, &keep[i]));
    int sum = 0, one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, keep[99]);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK(sum == size, "allreduce on the 100th dup %d", sum);
    for (int i = 0; i < 100; i++)
        MPI_Comm_free(&keep[i]);
    MPI_Group_free(&g);
    return mt_finish();
}
