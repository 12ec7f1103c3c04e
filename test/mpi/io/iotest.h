/* Helpers for the MPI-IO tests: a private directory per run (under
 * $TMPDIR or /tmp) that rank 0 creates and removes. */
#ifndef IOTEST_H
#define IOTEST_H
#include "../mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

static char io_dir[512];

static inline void io_dir_create(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        const char *t = getenv("TMPDIR");
        snprintf(io_dir, sizeof(io_dir), "%s/ucmpi-io-XXXXXX",
                 t && *t ? t : "/tmp");
        if (mkdtemp(io_dir) == NULL) {
            perror("mkdtemp");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Bcast(io_dir, sizeof(io_dir), MPI_CHAR, 0, MPI_COMM_WORLD);
}

/* Path of file `name` in the run's directory (static buffer). */
static inline const char *io_path(const char *name)
{
    static char p[1024];
    snprintf(p, sizeof(p), "%s/%s", io_dir, name);
    return p;
}

static inline void io_dir_remove(void)
{
    int rank;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0)
        return;
    DIR *d = opendir(io_dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(io_path(e->d_name));
    if (d != NULL)
        closedir(d);
    rmdir(io_dir);
}

static inline int io_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}
#endif
