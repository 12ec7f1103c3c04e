/*
 * Test client of the runtime API (no MPI): each mode exercises one launcher
 * behaviour.  Usage: rt_client MODE [ARGS]; see the switch in main().
 */
#include "ucmpi_rt.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ucmpi_rt_info_t info;
static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; \
    fprintf(stderr, "rank %d: check failed: %s: ", info.rank, #cond); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static void check_info(void)
{
    int n = 0;

    CHECK(info.size >= 1 && info.rank >= 0 && info.rank < info.size, "rank %d size %d",
          info.rank, info.size);
    CHECK(info.local_size >= 1 && info.local_rank < info.local_size, "local %d/%d",
          info.local_rank, info.local_size);
    CHECK(info.local_peers[info.local_rank] == info.rank, "peer[%d]=%d",
          info.local_rank, info.local_peers[info.local_rank]);
    for (int i = 0; i < info.local_size; i++) {
        CHECK(i == 0 || info.local_peers[i] > info.local_peers[i - 1], "peers ascending");
        CHECK(info.node_of[info.local_peers[i]] == info.node_of[info.rank], "peer on node");
    }
    for (int r = 0; r < info.size; r++)
        n += info.node_of[r] == info.node_of[info.rank];
    CHECK(n == info.local_size, "node count %d vs local size %d", n, info.local_size);
    CHECK(info.num_nodes >= 1, "num_nodes %d", info.num_nodes);
    CHECK(info.universe_size >= info.size, "universe %d", info.universe_size);
    if (getenv("EXPECT_SIZE") != NULL)
        CHECK(info.size == atoi(getenv("EXPECT_SIZE")), "size %d", info.size);
    if (getenv("EXPECT_SINGLETON") != NULL)
        CHECK(info.singleton == atoi(getenv("EXPECT_SINGLETON")), "singleton %d",
              info.singleton);
    CHECK(info.oversubscribed == (info.local_size > sysconf(_SC_NPROCESSORS_ONLN)),
          "oversubscribed %d", info.oversubscribed);
    printf("rank %d size %d local %d/%d nodes %d appnum %d universe %d singleton %d "
           "oversubscribed %d\n", info.rank, info.size, info.local_rank, info.local_size,
           info.num_nodes, info.appnum, info.universe_size, info.singleton, info.oversubscribed);
}

/* Every rank publishes a string and a binary blob, then reads all others'. */
static void check_modex(int rounds)
{
    for (int round = 0; round < rounds; round++) {
        char key[32], val[64];
        snprintf(key, sizeof(key), "k%d", round);
        snprintf(val, sizeof(val), "rank%d-round%d", info.rank, round);
        CHECK(ucmpi_rt_put(key, val, strlen(val) + 1) == 0, "put");
        CHECK(ucmpi_rt_put("bin", (int[2]){info.rank, 0}, 2 * sizeof(int)) == 0, "put bin");
        CHECK(ucmpi_rt_commit() == 0, "commit");
        CHECK(ucmpi_rt_fence(1, NULL) == 0, "fence");
        for (int r = 0; r < info.size; r++) {
            void *data = NULL;
            size_t len = 0;
            snprintf(val, sizeof(val), "rank%d-round%d", r, round);
            CHECK(ucmpi_rt_get(r, key, &data, &len) == 0, "get %s from %d", key, r);
            CHECK(data != NULL && len == strlen(val) + 1 && !strcmp(data, val),
                  "value of %s from %d", key, r);
            free(data);
            data = NULL;
            CHECK(ucmpi_rt_get(r, "bin", &data, &len) == 0, "get bin from %d", r);
            CHECK(data != NULL && len == 2 * sizeof(int) && ((int *)data)[0] == r,
                  "bin from %d", r);
            free(data);
        }
    }
}

static void wait_forever(void)
{
    ucmpi_rt_fence(0, NULL);    /* blocks while a peer is gone */
    for (;;)
        pause();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "info";
    int who = argc > 2 ? atoi(argv[2]) : 0;
    int code = argc > 3 ? atoi(argv[3]) : 1;

    if (ucmpi_rt_init(&info) != 0)
        return 2;
    if (!strcmp(mode, "info")) {
        check_info();
        check_modex(argc > 2 ? who : 2);
        if (!info.singleton)
            CHECK(ucmpi_rt_get(info.rank, "nonexistent", &(void *){0}, &(size_t){0}) != 0,
                  "missing key must fail");
    } else if (!strcmp(mode, "abort")) {          /* abort RANK CODE */
        if (info.rank == who)
            ucmpi_rt_abort(code, "rt_client: aborting on purpose");
        wait_forever();
    } else if (!strcmp(mode, "segv")) {           /* segv RANK */
        printf("rank %d before crash\n", info.rank);
        fflush(stdout);
        if (info.rank == who)
            raise(SIGSEGV);
        wait_forever();
    } else if (!strcmp(mode, "crashprint")) {     /* crashprint RANK: printf, no fflush */
        if (info.rank == who) {
            printf("rank %d printed this unflushed line\n", info.rank);
            raise(SIGSEGV);
        }
        wait_forever();
    } else if (!strcmp(mode, "exit")) {           /* exit RANK CODE: no finalize */
        if (info.rank == who)
            exit(code);
        wait_forever();
    } else if (!strcmp(mode, "sleep")) {          /* sleep SECONDS */
        printf("rank %d pid %d sleeping\n", info.rank, (int)getpid());
        fflush(stdout);
        sleep(who);
    } else if (!strcmp(mode, "stdin")) {          /* rank 0 echoes stdin */
        char buf[4096];
        ssize_t n, total = 0;
        while ((n = read(0, buf, sizeof(buf))) > 0) {
            total += n;
            if (info.rank == 0)
                fwrite(buf, 1, n, stdout);
        }
        CHECK(info.rank == 0 || total == 0, "rank %d read %zd bytes of stdin", info.rank, total);
    } else if (!strcmp(mode, "env")) {            /* env VAR */
        const char *v = getenv(argc > 2 ? argv[2] : "X");
        printf("rank %d %s=%s\n", info.rank, argv[2], v ? v : "(unset)");
    } else if (!strcmp(mode, "print")) {          /* print LINES: then finalize */
        for (int i = 0; i < who; i++)
            printf("line %d of rank %d\n", i, info.rank);
    } else if (!strcmp(mode, "finexit")) {        /* finexit RANK CODE: after finalize */
        ucmpi_rt_fence(0, NULL);
        ucmpi_rt_finalize();
        ucmpi_rt_info_free(&info);
        return info.rank == who ? code : 0;
    } else {
        fprintf(stderr, "rt_client: unknown mode %s\n", mode);
        return 2;
    }
    ucmpi_rt_fence(0, NULL);
    ucmpi_rt_finalize();
    ucmpi_rt_info_free(&info);
    if (failures == 0 && !strcmp(mode, "info"))
        printf("rank %d OK\n", info.rank);
    return failures ? 1 : 0;
}
