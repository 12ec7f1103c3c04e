/* MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name through mpiexec:
 * every rank finds rank 0's port by name, ranks 0 and 1 connect through it;
 * unknown, duplicate and withdrawn names give MPI_ERR_NAME / MPI_ERR_SERVICE. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fails, wrank;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("rank %d: ", wrank); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static int eclass(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    char port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
    char service[64], missing[64];
    int wsize, total, rc, pid = (int)getpid();
    MPI_Comm ic;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);   /* a unique name */
    snprintf(service, sizeof(service), "ucmpi-test-namepub-%d", pid);
    snprintf(missing, sizeof(missing), "ucmpi-test-unknown-%d", pid);
    if (wrank == 0) {
        MPI_Open_port(MPI_INFO_NULL, port);
        rc = MPI_Publish_name(service, MPI_INFO_NULL, port);
        CHECK(rc == MPI_SUCCESS, "publish: %d", rc);
        rc = MPI_Publish_name(service, MPI_INFO_NULL, port);
        CHECK(eclass(rc) == MPI_ERR_SERVICE, "duplicate publish: class %d",
              eclass(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rc = MPI_Lookup_name(service, MPI_INFO_NULL, found);
    CHECK(rc == MPI_SUCCESS, "lookup: %d", rc);
    if (wrank == 0)
        CHECK(strcmp(found, port) == 0, "lookup gave another port");
    rc = MPI_Lookup_name(missing, MPI_INFO_NULL, found);
    CHECK(eclass(rc) == MPI_ERR_NAME, "lookup of an unknown name: class %d",
          eclass(rc));
    if (wsize >= 2 && wrank <= 1) {
        if (wrank == 0)
            rc = MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
        else
            rc = MPI_Comm_connect(found, MPI_INFO_NULL, 0, MPI_COMM_SELF,
                                  &ic);
        CHECK(rc == MPI_SUCCESS, "accept/connect by name: %d", rc);
        if (rc == MPI_SUCCESS) {
            int v = wrank, w = -1;
            MPI_Sendrecv(&v, 1, MPI_INT, 0, 1, &w, 1, MPI_INT, 0, 1, ic,
                         MPI_STATUS_IGNORE);
            CHECK(w == 1 - wrank, "got %d", w);
            MPI_Comm_disconnect(&ic);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        rc = MPI_Unpublish_name(service, MPI_INFO_NULL, port);
        CHECK(rc == MPI_SUCCESS, "unpublish: %d", rc);
        rc = MPI_Unpublish_name(service, MPI_INFO_NULL, port);
        CHECK(eclass(rc) == MPI_ERR_SERVICE, "second unpublish: class %d",
              eclass(rc));
        MPI_Close_port(port);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rc = MPI_Lookup_name(service, MPI_INFO_NULL, found);
    CHECK(eclass(rc) == MPI_ERR_NAME, "lookup after unpublish: class %d",
          eclass(rc));
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0 && total == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return total != 0;
}
