/* UCMPI_TUNING_FILE: each rank writes a tuning file and points the knob at
 * it before MPI_Init (TUNE_CASE picks the file), then reads which
 * allreduce algorithm ran from the ucmpi_coll_alg_allreduce performance
 * variable (nonblocking calls: no shm path) and compares it with the
 * algorithms forced through the UCMPI_ALLREDUCE_ALGORITHM control variable.
 *   good        a rule (64 B -> ring) and a threshold (rd_max_bytes 100:
 *               128 B leaves recursive doubling) both change the choice
 *   bad         a malformed rule: a warning, and nothing applies (not even
 *               the file's valid threshold line)
 *   noheader    not a tuning file: a warning, built-in choices
 *   unknownalg  a rule naming no algorithm: a warning at its first use,
 *               built-in choices
 *   missing     no such file: a warning, built-in choices
 * Rank 0 keeps its stderr in a file to check the warning. */
#include "../mpitest.h"

#include <string.h>
#include <unistd.h>

static MPI_T_pvar_session sess;
static MPI_T_pvar_handle alg_h;
static int alg_n;

/* The row of ucmpi_coll_alg_allreduce one Iallreduce of count doubles ran. */
static int alg_of(int count)
{
    unsigned long long before[32], after[32];
    double in[16] = {0}, out[16];
    MPI_Request r;
    int id = -1;

    MT_CHECK_RC(MPI_T_pvar_read(sess, alg_h, before));
    MT_CHECK_RC(MPI_Iallreduce(in, out, count, MPI_DOUBLE, MPI_SUM,
                               MPI_COMM_WORLD, &r));
    MT_CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK_RC(MPI_T_pvar_read(sess, alg_h, after));
    for (int i = 0; i < alg_n; i++)
        if (after[i] != before[i]) {
            MT_CHECK(after[i] == before[i] + 1 && id < 0, "one run");
            id = i;
        }
    MT_CHECK(id >= 0, "no algorithm counted");
    return id;
}

static int forced(const char *alg, int count)
{
    int idx, n, id;
    MPI_T_cvar_handle h;

    MT_CHECK_RC(MPI_T_cvar_get_index("UCMPI_ALLREDUCE_ALGORITHM", &idx));
    MT_CHECK_RC(MPI_T_cvar_handle_alloc(idx, NULL, &h, &n));
    MT_CHECK_RC(MPI_T_cvar_write(h, alg));
    id = alg_of(count);
    MT_CHECK_RC(MPI_T_cvar_write(h, "auto"));
    MT_CHECK_RC(MPI_T_cvar_handle_free(&h));
    return id;
}

static void write_file(const char *path, const char *tcase)
{
    FILE *f = fopen(path, "w");

    if (f == NULL) {
        perror(path);
        exit(1);
    }
    if (strcmp(tcase, "noheader") != 0)
        fprintf(f, "# a test file\nucmpi-tuning 1\n\n");
    if (strcmp(tcase, "good") == 0 || strcmp(tcase, "noheader") == 0)
        fprintf(f, "rule allreduce ranks=2- bytes=64 algorithm=ring  # 8 "
                "doubles\nrule bcast ranks=1-3 bytes=1K- algorithm=chain\n"
                "threshold allreduce.rd_max_bytes 100\n");
    else if (strcmp(tcase, "bad") == 0)
        fprintf(f, "threshold allreduce.rd_max_bytes 100\n"
                "rule allreduce ranks=two bytes=64 algorithm=ring\n");
    else if (strcmp(tcase, "unknownalg") == 0)
        fprintf(f, "rule allreduce bytes=64 algorithm=no_such_algorithm\n");
    fclose(f);
}

int main(int argc, char **argv)
{
    const char *tcase = getenv("TUNE_CASE");
    char path[128], errpath[128];
    int rank, size, provided, idx, saved = -1;
    int good;

    if (tcase == NULL)
        tcase = "good";
    good = strcmp(tcase, "good") == 0;
    snprintf(path, sizeof(path), "/tmp/ucmpi_tune_test.%d.txt", (int)getpid());
    snprintf(errpath, sizeof(errpath), "/tmp/ucmpi_tune_test.%d.err",
             (int)getpid());
    if (strcmp(tcase, "missing") == 0)
        strcat(path, ".none");
    else
        write_file(path, tcase);
    setenv("UCMPI_TUNING_FILE", path, 1);
    /* only world rank 0 warns; every rank keeps its stderr until checked */
    fflush(stderr);
    saved = dup(2);
    FILE *ef = freopen(errpath, "w", stderr);
    (void)ef;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MT_CHECK_RC(MPI_T_pvar_session_create(&sess));
    MT_CHECK_RC(MPI_T_pvar_get_index("ucmpi_coll_alg_allreduce",
                                     MPI_T_PVAR_CLASS_COUNTER, &idx));
    MT_CHECK_RC(MPI_T_pvar_handle_alloc(sess, idx, NULL, &alg_h, &alg_n));
    MT_CHECK(alg_n <= 32, "%d elements", alg_n);

    int at64 = alg_of(8), at128 = alg_of(16);
    if (size >= 2) {
        int rd = forced("recursive_doubling", 8);
        int ring = forced("ring", 8);
        /* 16 doubles past rd_max_bytes: ring_segmented at 2 ranks */
        int above = forced(size == 2 ? "ring_segmented" : "rabenseifner",
                           16);
        MT_CHECK(rd != ring && rd != above, "rows %d %d %d", rd, ring, above);
        MT_CHECK(at64 == (good ? ring : rd), "64 B: row %d (rd %d ring %d)",
                 at64, rd, ring);
        MT_CHECK(at128 == (good ? above : rd), "128 B: row %d (rd %d, "
                 "above the threshold %d)", at128, rd, above);
        /* after the forcing, the rule still holds */
        MT_CHECK(alg_of(8) == at64, "64 B again");
    }
    /* the bcast rule's algorithm runs (data checked) */
    {
        char buf[2048];
        for (int i = 0; i < (int)sizeof(buf); i++)
            buf[i] = rank == 0 ? (char)(i * 7) : 0;
        MPI_Request r;
        MT_CHECK_RC(MPI_Ibcast(buf, (int)sizeof(buf), MPI_CHAR, 0,
                               MPI_COMM_WORLD, &r));
        MT_CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < (int)sizeof(buf); i++)
            if (buf[i] != (char)(i * 7)) {
                MT_CHECK(0, "bcast byte %d", i);
                break;
            }
    }
    MT_CHECK_RC(MPI_T_pvar_handle_free(sess, &alg_h));
    MT_CHECK_RC(MPI_T_pvar_session_free(&sess));
    MT_CHECK_RC(MPI_T_finalize());

    /* stderr back; rank 0 checks its warning */
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    {
        char text[4096] = "";
        FILE *f = fopen(errpath, "r");
        size_t got = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
        text[got] = '\0';
        if (f)
            fclose(f);
        fputs(text, stderr);      /* for the log */
        const char *want =
            strcmp(tcase, "bad") == 0 ? "line 5: ranks=two" :
            strcmp(tcase, "noheader") == 0 ? "must start with" :
            strcmp(tcase, "unknownalg") == 0 ? "no_such_algorithm is not" :
            strcmp(tcase, "missing") == 0 ? "No such file" : NULL;
        if (rank == 0 && want != NULL)
            MT_CHECK(strstr(text, "UCMPI_TUNING_FILE") != NULL ||
                     strcmp(tcase, "unknownalg") == 0, "no warning: %s", text);
        if (rank == 0 && want != NULL && (size >= 2 ||
                                          strcmp(tcase, "unknownalg") != 0))
            MT_CHECK(strstr(text, want) != NULL, "warning lacks \"%s\": %s",
                     want, text);
        if (want == NULL || rank != 0)
            MT_CHECK(strstr(text, "ucmpi:") == NULL, "unexpected: %s", text);
    }
    unlink(errpath);
    if (strcmp(tcase, "missing") != 0)
        unlink(path);
    return mt_finish();
}
