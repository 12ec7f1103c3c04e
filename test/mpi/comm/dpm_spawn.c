/* MPI_Comm_spawn / MPI_Comm_get_parent through mpiexec.  The program is its
 * own child (argv[1] == "child").  DPM_SPAWN_MODE picks the case:
 *   basic  1 to 8 children: argv, sizes, p2p, merge + collectives,
 *          MPI_UNIVERSE_SIZE / MPI_APPNUM, errcodes, disconnect
 *   nest   the children spawn a grandchild, which meets them
 *   bad    nonexistent command, maxprocs <= 0: errors, not hangs
 *   multi  MPI_Comm_spawn_multiple of two commands (MPI_APPNUM 0 and 1),
 *          each with its info (file, host, path, wdir), then a spawn
 *          that "soft" lets start fewer
 *   bad    also reserved info keys we cannot honour
 *   srun   (under srun --mpi=pmix) spawn fails with MPI_ERR_SPAWN
 *   crash  a child exits abruptly: the parent's receive under
 *          MPI_ERRORS_RETURN fails (test/launcher/run.sh checks the rest)
 *   crashfatal  the same under MPI_ERRORS_ARE_FATAL: the job ends
 *   survive  (mpiexec --disable-auto-cleanup) one child dies, the other
 *          goes on and tells the parent
 *   hang   the child blocks: the inherited --timeout ends and reports it */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fails, wrank, wsize;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("%s rank %d: ", \
    role, wrank); printf(__VA_ARGS__); printf("\n"); fflush(stdout); } } \
    while (0)
static const char *role = "parent";
static char self[4096];

static int eclass(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

static const char *base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b != NULL ? b + 1 : path;
}

/* Both sides: p2p, intercomm collectives, merge (parents low). */
static void talk(MPI_Comm ic, int is_child)
{
    int rank, rsize, size, v, sum, mrank, msize;
    MPI_Comm merged;

    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    /* every child sends to parent (child % nparents) */
    if (is_child) {
        v = 1000 + rank;
        MPI_Send(&v, 1, MPI_INT, rank % rsize, 11, ic);
    } else {
        for (int c = rank; c < rsize; c += size) {
            MPI_Recv(&v, 1, MPI_INT, c, 11, ic, MPI_STATUS_IGNORE);
            CHECK(v == 1000 + c, "from child %d got %d", c, v);
        }
    }
    v = rank + 1;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic);
    CHECK(sum == rsize * (rsize + 1) / 2, "inter allreduce %d", sum);
    v = is_child ? -1 : 77;
    MPI_Bcast(&v, 1, MPI_INT, is_child ? 0 : (rank == 0 ? MPI_ROOT
                                                       : MPI_PROC_NULL), ic);
    CHECK(!is_child || v == 77, "inter bcast %d", v);
    MPI_Intercomm_merge(ic, is_child, &merged);
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK(msize == size + rsize && mrank == (is_child ? rsize : 0) + rank,
          "merged %d of %d", mrank, msize);
    v = mrank;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, merged);
    CHECK(sum == msize * (msize - 1) / 2, "merged allreduce %d", sum);
    MPI_Barrier(merged);
    /* world ranks differ between the jobs: groups must cross by identity */
    {
        MPI_Comm eo, ic2, ic3;
        MPI_Group g;
        int one = 1, s2, rs2;
        MPI_Comm_split(merged, mrank % 2, 0, &eo);
        MPI_Intercomm_create(eo, 0, merged, (mrank + 1) % 2, 321, &ic2);
        MPI_Comm_remote_size(ic2, &rs2);
        MPI_Allreduce(&one, &s2, 1, MPI_INT, MPI_SUM, ic2);
        CHECK(rs2 == msize / 2 + (mrank % 2 == 0 ? 0 : msize % 2) ||
              s2 == rs2, "even/odd intercomm: remote %d sum %d", rs2, s2);
        CHECK(s2 == rs2, "even/odd intercomm allreduce %d of %d", s2, rs2);
        MPI_Comm_free(&ic2);
        MPI_Comm_free(&eo);
        MPI_Comm_group(ic, &g);
        MPI_Comm_create(ic, g, &ic3);
        MPI_Comm_remote_size(ic3, &rs2);
        CHECK(rs2 == rsize, "MPI_Comm_create on the intercomm: remote %d",
              rs2);
        MPI_Allreduce(&one, &s2, 1, MPI_INT, MPI_SUM, ic3);
        CHECK(s2 == rsize, "created intercomm allreduce %d", s2);
        MPI_Comm_free(&ic3);
        MPI_Group_free(&g);
    }
    MPI_Comm_free(&merged);
}

static void child(int argc, char **argv, MPI_Comm parent)
{
    int size, psize, *attr, flag;

    role = "child";
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_remote_size(parent, &psize);
    CHECK(argc >= 5, "argc %d", argc);
    if (argc < 5)
        return;
    CHECK(size == atoi(argv[2]), "world size %d, want %s", size, argv[2]);
    CHECK(psize == atoi(argv[3]), "parent size %d, want %s", psize, argv[3]);
    {
        char v[4096] = "";
        int f = 0;
        MPI_Info_get(MPI_INFO_ENV, "maxprocs", sizeof(v) - 1, v, &f);
        CHECK(f && atoi(v) == size, "MPI_INFO_ENV maxprocs %s", v);
        f = 0;
        MPI_Info_get(MPI_INFO_ENV, "command", sizeof(v) - 1, v, &f);
        CHECK(f && strcmp(base(v), base(self)) == 0,
              "MPI_INFO_ENV command %s, want %s", v, self);
    }
    int app = strcmp(argv[4], "multi-b") == 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &attr, &flag);
    CHECK(flag && *attr == app, "MPI_APPNUM %d %d", flag, flag ? *attr : -1);
    if (strncmp(argv[4], "multi", 5) == 0) {
        char cwd[4096] = "";
        const char *want = app ? "/" : "/tmp";   /* each command's wdir */
        CHECK(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, want) == 0,
              "working directory %s, want %s", cwd, want);
    }
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &attr, &flag);
    CHECK(flag && *attr >= size, "MPI_UNIVERSE_SIZE %d %d", flag,
          flag ? *attr : -1);
    if (strcmp(argv[4], "crash") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (wrank == 0)
            _exit(3);
        sleep(2);
    } else if (strcmp(argv[4], "survive") == 0) {
        /* under --disable-auto-cleanup (inherited): rank 1 dies, rank 0
         * goes on, sees it, and tells the parent */
        int v = 0, ok;
        MPI_Barrier(MPI_COMM_WORLD);
        if (wrank == 1)
            _exit(3);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        ok = eclass(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE)) == MPI_ERR_PROC_FAILED;
        MPI_Send(&ok, 1, MPI_INT, 0, 98, parent);
        MPI_Finalize();
        exit(0);
    } else if (strcmp(argv[4], "hang") == 0) {
        /* blocks until the inherited --timeout ends the job */
        MPI_Probe(0, 96, parent, MPI_STATUS_IGNORE);
    } else if (strcmp(argv[4], "nest") == 0) {
        /* spawn one grandchild over our world, talk to it */
        char *gargv[] = {"child", "1", argv[2], "basic", NULL};
        MPI_Comm g;
        int err = -1;
        MPI_Comm_spawn(self, gargv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                       &g, &err);
        CHECK(err == MPI_SUCCESS, "grandchild errcode %d", err);
        talk(g, 0);
        MPI_Comm_disconnect(&g);
    }
    talk(parent, 1);
}

static void spawn_n(int n, const char *mode)
{
    char ns[16], ps[16], *cargv[] = {"child", ns, ps, (char *)mode, NULL};
    int *errs = malloc(sizeof(int) * (size_t)n), rsize;
    MPI_Comm ic;
    MPI_Info info;

    snprintf(ns, sizeof(ns), "%d", n);
    snprintf(ps, sizeof(ps), "%d", wsize);
    for (int i = 0; i < n; i++)
        errs[i] = -1;
    MPI_Info_create(&info);
    MPI_Info_set(info, "wdir", "/tmp");    /* self is an absolute path */
    MPI_Info_set(info, "soft", "1:8");
    MPI_Comm_spawn(self, cargv, n, info, wsize - 1, MPI_COMM_WORLD, &ic,
                   errs);
    MPI_Info_free(&info);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(rsize == n, "remote size %d, want %d", rsize, n);
    for (int i = 0; i < n; i++)
        CHECK(errs[i] == MPI_SUCCESS, "errcode[%d] %d", i, errs[i]);
    talk(ic, 0);
    MPI_Comm_disconnect(&ic);
    free(errs);
}

/* Two commands, each with its own info: the first's working directory
 * comes from a file (key "file") and names this host; the second is found
 * through "path" and has its own "wdir". */
static void multi(void)
{
    char ps[16], file[64] = "", dir[4096], host[256] = "localhost";
    char *a[] = {"child", "3", ps, "multi-a", NULL};
    char *b[] = {"child", "3", ps, "multi-b", NULL};
    char *cmds[2] = {self, (char *)base(self)}, **argvs[2] = {a, b};
    int np[2] = {1, 2}, errs[3] = {-1, -1, -1}, rsize;
    MPI_Info infos[2];
    MPI_Comm ic;

    snprintf(ps, sizeof(ps), "%d", wsize);
    snprintf(dir, sizeof(dir), "%.*s", (int)(base(self) - self - 1), self);
    gethostname(host, sizeof(host));
    MPI_Info_create(&infos[0]);
    MPI_Info_create(&infos[1]);
    if (wrank == 0) {
        FILE *f;
        snprintf(file, sizeof(file), "/tmp/dpm_spawn_info.%d", (int)getpid());
        f = fopen(file, "w");
        CHECK(f != NULL, "cannot write %s", file);
        if (f != NULL) {
            fprintf(f, "# reserved keys of the first command\n"
                       "wdir = /tmp\nsoft 1\n");
            fclose(f);
        }
        MPI_Info_set(infos[0], "file", file);
        MPI_Info_set(infos[0], "host", host);
        MPI_Info_set(infos[1], "wdir", "/");
        MPI_Info_set(infos[1], "path", dir);
    }
    MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, 0, MPI_COMM_WORLD, &ic,
                            errs);
    MPI_Info_free(&infos[0]);
    MPI_Info_free(&infos[1]);
    if (wrank == 0)
        unlink(file);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(rsize == 3, "remote size %d", rsize);
    if (wrank == 0)
        for (int i = 0; i < 3; i++)
            CHECK(errs[i] == MPI_SUCCESS, "errcode[%d] %d", i, errs[i]);
    talk(ic, 0);
    MPI_Comm_disconnect(&ic);
}

/* maxprocs 5 with soft "1,2,4": four start, the fifth errcode says so. */
static void soft(void)
{
    char ps[16], *cargv[] = {"child", "4", ps, "basic", NULL};
    int errs[5] = {-1, -1, -1, -1, -1}, rsize;
    MPI_Info info;
    MPI_Comm ic;

    snprintf(ps, sizeof(ps), "%d", wsize);
    MPI_Info_create(&info);
    MPI_Info_set(info, "soft", "1:2, 4");
    MPI_Comm_spawn(self, cargv, 5, info, 0, MPI_COMM_WORLD, &ic, errs);
    MPI_Info_free(&info);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(rsize == 4, "soft: remote size %d, want 4", rsize);
    if (wrank == 0) {
        for (int i = 0; i < 4; i++)
            CHECK(errs[i] == MPI_SUCCESS, "soft: errcode[%d] %d", i, errs[i]);
        CHECK(eclass(errs[4]) == MPI_ERR_SPAWN, "soft: errcode[4] class %d",
              eclass(errs[4]));
    }
    talk(ic, 0);
    MPI_Comm_disconnect(&ic);
}

/* mpiexec --disable-auto-cleanup: the spawned job inherits it, so its
 * rank 0 outlives rank 1's crash and reports to us. */
static void survive(void)
{
    char ps[16], *cargv[] = {"child", "2", ps, "survive", NULL};
    MPI_Comm ic;
    int ok = -1, rc;

    snprintf(ps, sizeof(ps), "%d", wsize);
    MPI_Comm_spawn(self, cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                   MPI_ERRCODES_IGNORE);
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    if (wrank == 0) {
        rc = MPI_Recv(&ok, 1, MPI_INT, 0, 98, ic, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && ok == 1, "child 0's report: rc %d ok %d",
              eclass(rc), ok);
        if (rc == MPI_SUCCESS && ok == 1)
            printf("parent: child 0 survived its sibling's crash\n");
    }
    MPI_Comm_free(&ic);
}

/* mpiexec -n 1 prog appnum 0 : -n 2 prog appnum 1 */
static void appnum(int want)
{
    int *attr, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &attr, &flag);
    CHECK(flag && *attr == want, "MPI_APPNUM %d, want %d", flag ? *attr : -1,
          want);
}

static void bad(void)
{
    MPI_Comm ic = MPI_COMM_NULL;
    int errs[2] = {-1, -1}, rc;
    char *nargv[] = {"x", NULL};

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Comm_spawn("/nonexistent/ucmpi-no-such-command", MPI_ARGV_NULL,
                        2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, errs);
    CHECK(eclass(rc) == MPI_ERR_SPAWN, "nonexistent command: class %d",
          eclass(rc));
    CHECK(ic == MPI_COMM_NULL, "nonexistent command: a comm");
    if (wrank == 0)
        CHECK(errs[0] != MPI_SUCCESS && errs[1] != MPI_SUCCESS,
              "errcodes %d %d", errs[0], errs[1]);
    rc = MPI_Comm_spawn(self, nargv, 0, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                        &ic, MPI_ERRCODES_IGNORE);
    CHECK(eclass(rc) == MPI_ERR_ARG, "maxprocs 0: class %d", eclass(rc));
    rc = MPI_Comm_spawn(self, nargv, -3, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                        &ic, MPI_ERRCODES_IGNORE);
    CHECK(eclass(rc) == MPI_ERR_ARG, "maxprocs -3: class %d", eclass(rc));
    rc = MPI_Comm_spawn(self, nargv, 1, MPI_INFO_NULL, wsize, MPI_COMM_WORLD,
                        &ic, MPI_ERRCODES_IGNORE);
    CHECK(eclass(rc) == MPI_ERR_ROOT, "root out of range: class %d",
          eclass(rc));
    /* reserved info keys with values we cannot honour */
    {
        static const struct { const char *key, *val; int cls; } cases[] = {
            {"host", "ucmpi-no-such-host.invalid", MPI_ERR_SPAWN},
            {"file", "/nonexistent/ucmpi-spawn-info", MPI_ERR_INFO_VALUE},
            {"soft", "5:9", MPI_ERR_SPAWN},
            {"soft", "two", MPI_ERR_INFO_VALUE},
            {"path", "/nonexistent", MPI_ERR_SPAWN},
        };
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            MPI_Info info;
            MPI_Info_create(&info);
            MPI_Info_set(info, cases[i].key, cases[i].val);
            /* the path case needs a command only the path could find */
            rc = MPI_Comm_spawn(strcmp(cases[i].key, "path") == 0
                                ? "ucmpi-no-such-command" : self, nargv, 2,
                                info, 0, MPI_COMM_WORLD, &ic,
                                MPI_ERRCODES_IGNORE);
            MPI_Info_free(&info);
            CHECK(eclass(rc) == cases[i].cls, "info %s=%s: class %d, want %d",
                  cases[i].key, cases[i].val, eclass(rc), cases[i].cls);
            CHECK(ic == MPI_COMM_NULL, "info %s=%s: a comm", cases[i].key,
                  cases[i].val);
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* A child crashes: under MPI_ERRORS_RETURN the parent's receive fails
 * (fatal: the default handler ends the job there). */
static void crash(int fatal)
{
    char ps[16], *cargv[] = {"child", "2", ps, "crash", NULL};
    MPI_Comm ic;
    int v = 0, rc;

    snprintf(ps, sizeof(ps), "%d", wsize);
    MPI_Comm_spawn(self, cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                   MPI_ERRCODES_IGNORE);
    if (!fatal)
        MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    if (wrank == 0) {
        rc = MPI_Recv(&v, 1, MPI_INT, 0, 99, ic, MPI_STATUS_IGNORE);
        CHECK(eclass(rc) == MPI_ERR_PROC_FAILED, "receive from a crashed "
              "child: class %d", eclass(rc));
        if (eclass(rc) == MPI_ERR_PROC_FAILED)
            printf("parent: crash of a spawned process detected\n");
    }
    MPI_Comm_free(&ic);
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    const char *mode = getenv("DPM_SPAWN_MODE");
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

    self[n > 0 ? n : 0] = '\0';
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_get_parent(&parent);
    if (argc > 2 && strcmp(argv[1], "appnum") == 0) {
        appnum(atoi(argv[2]));
    } else if (argc > 1 && strcmp(argv[1], "child") == 0) {
        CHECK(parent != MPI_COMM_NULL, "no parent");
        if (parent != MPI_COMM_NULL) {
            child(argc, argv, parent);
            MPI_Comm_disconnect(&parent);
            MPI_Comm_get_parent(&parent);
            CHECK(parent == MPI_COMM_NULL, "parent after disconnect");
        }
    } else {
        CHECK(parent == MPI_COMM_NULL, "a parent without spawn");
        if (mode == NULL || strcmp(mode, "basic") == 0) {
            for (int n = 1; n <= 8; n++)
                spawn_n(n, "basic");
        } else if (strcmp(mode, "nest") == 0) {
            spawn_n(2, "nest");
        } else if (strcmp(mode, "multi") == 0) {
            multi();
            soft();
        } else if (strcmp(mode, "bad") == 0) {
            bad();
        } else if (strcmp(mode, "srun") == 0) {
            MPI_Comm ic;
            int ec, rc;
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0,
                                MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE);
            MPI_Error_class(rc, &ec);
            CHECK(ec == MPI_ERR_SPAWN, "spawn under srun: class %d", ec);
        } else if (strcmp(mode, "crash") == 0) {
            crash(0);
        } else if (strcmp(mode, "crashfatal") == 0) {
            crash(1);
            MPI_Barrier(MPI_COMM_WORLD);   /* rank 0's error ends us here */
            CHECK(0, "the job went on after a fatal error");
        } else if (strcmp(mode, "survive") == 0) {
            survive();
        } else if (strcmp(mode, "hang") == 0) {
            char ps[16], *cargv[] = {"child", "1", ps, "hang", NULL};
            MPI_Comm ic;
            snprintf(ps, sizeof(ps), "%d", wsize);
            MPI_Comm_spawn(self, cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                           &ic, MPI_ERRCODES_IGNORE);
            MPI_Barrier(ic);      /* the child never comes */
        }
    }
    int total = fails;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0 && total == 0 && strcmp(role, "parent") == 0 &&
        getenv("UCMPI_DPM_PARENT") == NULL)
        printf("No Errors\n");
    MPI_Finalize();
    return total != 0;
}
