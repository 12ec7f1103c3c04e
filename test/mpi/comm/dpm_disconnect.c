/* MPI_Comm_disconnect really disconnects.  The program is its own child
 * (argv[1] == "child").  DPM_DISC_MODE picks the direction:
 *   loop     the parents spawn 1, 2, ... 8 children in turn; each time
 *            traffic still pending at the disconnect (a freed 1 MB Isend,
 *            a Bsend) arrives, then the children finish and exit while the
 *            parents go on and see their processes gone.  Run with a small
 *            UCMPI_DPM_PEERS: the 36 children fit only if the disconnected
 *            ones' table entries are let go and reused.
 *   reverse  the parents disconnect and finish first; the children see the
 *            parents' processes gone, then talk among themselves and exit
 *            (mpiexec's exit code says whether they were content). */
#include <mpi.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BIG (1 << 20)        /* past the eager limit: a rendezvous */
#define TAG_PID 1
#define TAG_BIG 2
#define TAG_BSEND 3

static int fails, wrank, wsize;
static const char *role = "parent";
static char self[4096];
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("%s rank %d: ", \
    role, wrank); printf(__VA_ARGS__); printf("\n"); fflush(stdout); } } \
    while (0)

/* Waits until none of the n processes exists (they finished on their own). */
static void wait_gone(const int *pids, int n, const char *who)
{
    for (int i = 0; i < n; i++) {
        time_t end = time(NULL) + 200;     /* a hang guard, not a speed bound */
        while (kill(pids[i], 0) == 0 && time(NULL) < end)
            usleep(10000);
        CHECK(kill(pids[i], 0) != 0 && errno == ESRCH,
              "%s process %d still exists after the disconnect", who,
              pids[i]);
    }
}

static void fill(char *b, int seed)
{
    for (int i = 0; i < BIG; i++)
        b[i] = (char)(seed * 31 + i);
}

/* Child: its pid to parent (rank % psize), a Bsend, then the 1 MB message
 * the parent freed at once; then disconnect and finish alone. */
static void child_loop(MPI_Comm parent)
{
    int rank, psize, pid = (int)getpid(), size;
    char *want = malloc(BIG), *got = malloc(BIG);
    int bsz = MPI_BSEND_OVERHEAD + (int)sizeof(int);
    void *buf = malloc((size_t)bsz);
    MPI_Comm p = parent;

    MPI_Comm_rank(parent, &rank);
    MPI_Comm_remote_size(parent, &psize);
    MPI_Send(&pid, 1, MPI_INT, rank % psize, TAG_PID, parent);
    MPI_Buffer_attach(buf, bsz);
    int v = 5000 + rank;
    MPI_Bsend(&v, 1, MPI_INT, rank % psize, TAG_BSEND, parent);
    MPI_Recv(got, BIG, MPI_CHAR, rank % psize, TAG_BIG, parent,
             MPI_STATUS_IGNORE);
    fill(want, rank);
    CHECK(memcmp(want, got, BIG) == 0, "1 MB message from the parent differs");
    MPI_Comm_disconnect(&p);
    CHECK(p == MPI_COMM_NULL, "handle after disconnect");
    MPI_Comm_get_parent(&p);
    CHECK(p == MPI_COMM_NULL, "MPI_Comm_get_parent after disconnect");
    MPI_Buffer_detach(&buf, &bsz);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size, "children's allreduce after disconnect %d", sum);
    free(buf);
    free(want);
    free(got);
}

static void spawn_loop(int n)
{
    char ns[8], *cargv[] = {"child", "loop", ns, NULL};
    MPI_Comm ic;
    int errs[8], nmine = 0, *pids = malloc(sizeof(int) * (size_t)n);
    char **bufs = calloc((size_t)n, sizeof(char *));

    snprintf(ns, sizeof(ns), "%d", n);
    MPI_Comm_spawn(self, cargv, n, MPI_INFO_NULL, n % wsize, MPI_COMM_WORLD,
                   &ic, errs);
    for (int c = wrank; c < n; c += wsize) {
        MPI_Request r;
        int v = -1;
        MPI_Recv(&pids[nmine++], 1, MPI_INT, c, TAG_PID, ic,
                 MPI_STATUS_IGNORE);
        bufs[c] = malloc(BIG);
        fill(bufs[c], c);
        MPI_Isend(bufs[c], BIG, MPI_CHAR, c, TAG_BIG, ic, &r);
        MPI_Request_free(&r);     /* the disconnect completes it */
        MPI_Recv(&v, 1, MPI_INT, c, TAG_BSEND, ic, MPI_STATUS_IGNORE);
        CHECK(v == 5000 + c, "Bsend from child %d: %d", c, v);
    }
    MPI_Comm_disconnect(&ic);
    CHECK(ic == MPI_COMM_NULL, "handle after disconnect");
    /* the children finish without us */
    wait_gone(pids, nmine, "child");
    for (int c = 0; c < n; c++)
        free(bufs[c]);
    free(bufs);
    free(pids);
}

/* Parents send their pids, disconnect and finish; children wait for them
 * to be gone before they talk among themselves. */
static void reverse_parent(void)
{
    char *cargv[] = {"child", "reverse", NULL};
    MPI_Comm ic;
    int pid = (int)getpid(), *pids = malloc(sizeof(int) * (size_t)wsize);

    MPI_Comm_spawn(self, cargv, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                   MPI_ERRCODES_IGNORE);
    MPI_Gather(&pid, 1, MPI_INT, pids, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&wsize, 1, MPI_INT, wrank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
    MPI_Bcast(pids, wsize, MPI_INT, wrank == 0 ? MPI_ROOT : MPI_PROC_NULL,
              ic);
    MPI_Comm_disconnect(&ic);
    free(pids);
}

static void child_reverse(MPI_Comm parent)
{
    int n = 0, *pids, size, sum = 0, one = 1;

    MPI_Bcast(&n, 1, MPI_INT, 0, parent);
    pids = malloc(sizeof(int) * (size_t)n);
    MPI_Bcast(pids, n, MPI_INT, 0, parent);
    MPI_Comm_disconnect(&parent);
    wait_gone(pids, n, "parent");
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size, "children's allreduce without parents %d", sum);
    free(pids);
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    const char *mode = getenv("DPM_DISC_MODE");
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

    self[n > 0 ? n : 0] = '\0';
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_get_parent(&parent);
    if (argc > 2 && strcmp(argv[1], "child") == 0) {
        role = "child";
        if (parent == MPI_COMM_NULL)
            CHECK(0, "no parent");
        else if (strcmp(argv[2], "loop") == 0)
            child_loop(parent);
        else
            child_reverse(parent);
    } else if (mode != NULL && strcmp(mode, "reverse") == 0) {
        reverse_parent();
    } else {
        for (int k = 1; k <= 8; k++)
            spawn_loop(k);
        /* still a working job */
        int one = 1, sum = 0;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(sum == wsize, "allreduce after the spawns %d", sum);
    }
    int total = fails;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0 && total == 0 && strcmp(role, "parent") == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return total != 0;
}
