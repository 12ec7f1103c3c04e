/* MPI_T: the tool interface before MPI_Init, during and after
 * MPI_Finalize; control variable names, indices, categories and string
 * rules; reading the environment's value; writing a runtime tunable (the
 * allreduce algorithm) on every rank between collectives; the errors of
 * read-only variables, unknown names and handles; sessions (pvar.c and
 * event.c check performance variables and events). */
#include "../mpitest.h"

#include <string.h>

static int find(const char *name)
{
    int idx = -1;
    MT_CHECK(MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS, "%s", name);
    return idx;
}

static void check_names(void)
{
    int n = 0, ncat = 0, total = 0;

    MT_CHECK_RC(MPI_T_cvar_get_num(&n));
    MT_CHECK(n >= 20, "only %d cvars", n);
    for (int i = 0; i < n; i++) {
        char name[128], small[8];
        int len = sizeof(name), need = 0, slen = sizeof(small), idx = -1;

        MT_CHECK_RC(MPI_T_cvar_get_info(i, NULL, &need, NULL, NULL, NULL,
                                        NULL, NULL, NULL, NULL));
        MT_CHECK_RC(MPI_T_cvar_get_info(i, name, &len, NULL, NULL, NULL,
                                        NULL, NULL, NULL, NULL));
        MT_CHECK(strncmp(name, "UCMPI_", 6) == 0, "name %s", name);
        MT_CHECK(len == (int)strlen(name) + 1 && need == len,
                 "%s: len %d need %d", name, len, need);
        MT_CHECK_RC(MPI_T_cvar_get_info(i, small, &slen, NULL, NULL, NULL,
                                        NULL, NULL, NULL, NULL));
        MT_CHECK(slen == 8 && strlen(small) == 7 &&
                 strncmp(small, name, 7) == 0, "truncated %s %d", small, slen);
        MT_CHECK(MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS && idx == i,
                 "%s -> %d, not %d", name, idx, i);
    }
    MT_CHECK(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL, NULL) == MPI_T_ERR_INVALID_INDEX, "n");
    MT_CHECK_RC(MPI_T_category_get_num(&ncat));
    for (int c = 0; c < ncat; c++) {
        int nc = -1, np = -1, nsub = -1, idx[64], ci = -1;
        char name[64];
        int len = sizeof(name);

        MT_CHECK_RC(MPI_T_category_get_info(c, name, &len, NULL, NULL, &nc,
                                            &np, &nsub));
        MT_CHECK(MPI_T_category_get_index(name, &ci) == MPI_SUCCESS &&
                 ci == c, "category %s", name);
        MT_CHECK(nc >= 0 && nc <= 64 && np > 0 && nsub == 0, "%d %d", nc,
                 np);
        MT_CHECK_RC(MPI_T_category_get_cvars(c, nc, idx));
        for (int k = 0; k < nc; k++)
            MT_CHECK(idx[k] >= 0 && idx[k] < n, "index %d", idx[k]);
        total += nc;
    }
    MT_CHECK(total == n, "categories hold %d of %d cvars", total, n);
}

static void check_read_and_errors(void)
{
    MPI_T_cvar_handle h;
    int count = 0, scope = 0, rc, v = 0;
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    char s[256];
    const char *env = getenv("UCMPI_WAIT_MODE");
    int idx = find("UCMPI_WAIT_MODE");

    MT_CHECK_RC(MPI_T_cvar_get_info(idx, NULL, NULL, NULL, &dt, NULL, NULL,
                                    NULL, NULL, &scope));
    MT_CHECK(dt == MPI_CHAR && scope == MPI_T_SCOPE_READONLY, "wait mode");
    MT_CHECK_RC(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
    MT_CHECK(count == 256, "count %d", count);
    MT_CHECK_RC(MPI_T_cvar_read(h, s));
    MT_CHECK(strcmp(s, env ? env : "auto") == 0, "WAIT_MODE %s", s);
    rc = MPI_T_cvar_write(h, "poll");
    MT_CHECK(rc == MPI_T_ERR_CVAR_SET_NEVER, "write read-only: %d", rc);
    MT_CHECK_RC(MPI_T_cvar_handle_free(&h));
    MT_CHECK(h == MPI_T_CVAR_HANDLE_NULL, "handle not reset");
    MT_CHECK(MPI_T_cvar_read(h, s) == MPI_T_ERR_INVALID_HANDLE, "freed");

    MT_CHECK_RC(MPI_T_cvar_handle_alloc(find("UCMPI_ALLTOALL_WINDOW"), NULL,
                                        &h, &count));
    MT_CHECK_RC(MPI_T_cvar_read(h, &v));
    MT_CHECK(count == 1 && v == 32, "ALLTOALL_WINDOW %d (count %d)", v, count);
    MT_CHECK_RC(MPI_T_cvar_handle_free(&h));
    MT_CHECK(MPI_T_cvar_get_index("WAIT_MODE", &idx) ==
             MPI_T_ERR_INVALID_NAME, "name without prefix");
}

static void check_empty_sets(void)
{
    MPI_T_pvar_session ses, gone;
    MPI_T_pvar_handle ph;
    int n = -1, count, idx;
    char err[MPI_MAX_ERROR_STRING];
    int cls = -1, len;

    MT_CHECK(MPI_T_pvar_get_num(&n) == MPI_SUCCESS && n > 10, "pvars %d", n);
    MT_CHECK_RC(MPI_T_pvar_session_create(&ses));
    MT_CHECK(MPI_T_pvar_handle_alloc(ses, n, NULL, &ph, &count) ==
             MPI_T_ERR_INVALID_INDEX, "pvar n");
    MT_CHECK_RC(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES));
    gone = ses;
    MT_CHECK_RC(MPI_T_pvar_session_free(&ses));
    MT_CHECK(ses == MPI_T_PVAR_SESSION_NULL, "session not reset");
    MT_CHECK(MPI_T_pvar_session_free(&gone) == MPI_T_ERR_INVALID_SESSION,
             "double free");
    MT_CHECK(MPI_T_event_get_num(&n) == MPI_SUCCESS && n == 3, "events");
    MT_CHECK(MPI_T_event_get_index("x", &idx) == MPI_T_ERR_INVALID_NAME, "ev");
    MT_CHECK(MPI_T_source_get_num(&n) == MPI_SUCCESS && n == 1, "sources");
    MT_CHECK(MPI_Error_class(MPI_T_ERR_INVALID_NAME, &cls) == MPI_SUCCESS &&
             cls == MPI_T_ERR_INVALID_NAME, "class %d", cls);
    MPI_Error_string(MPI_T_ERR_CVAR_SET_NEVER, err, &len);
    MT_CHECK(strstr(err, "MPI_T_ERR_CVAR_SET_NEVER") != NULL, "%s", err);
}

/* Every rank switches the allreduce algorithm through MPI_T between
 * allreduces; each result must stay right, including on odd sizes. */
static void check_runtime_write(int rank, int size)
{
    static const char *algs[] = {"recursive_doubling", "ring", "rabenseifner",
                                 "", "shm", "reduce_bcast",
                                 "hierarchical", "ring_segmented"};
    MPI_T_cvar_handle h;
    int count, scope = 0, idx = find("UCMPI_ALLREDUCE_ALGORITHM");
    char back[256];

    MT_CHECK_RC(MPI_T_cvar_get_info(idx, NULL, NULL, NULL, NULL, NULL, NULL,
                                    NULL, NULL, &scope));
    MT_CHECK(scope == MPI_T_SCOPE_ALL_EQ, "scope %d", scope);
    MT_CHECK_RC(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
    for (int round = 0; round < 3; round++)
        for (size_t a = 0; a < sizeof(algs) / sizeof(algs[0]); a++) {
            long in[300], out[300];

            MT_CHECK_RC(MPI_T_cvar_write(h, algs[a]));
            MT_CHECK_RC(MPI_T_cvar_read(h, back));
            MT_CHECK(strcmp(back, algs[a]) == 0, "read %s", back);
            for (int i = 0; i < 300; i++)
                in[i] = (long)(rank + 1) * (i + round);
            MPI_Allreduce(in, out, 300, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
            for (int i = 0; i < 300; i++)
                MT_CHECK(out[i] == (long)size * (size + 1) / 2 * (i + round),
                         "%s: out[%d] = %ld", algs[a], i, out[i]);
        }
    MT_CHECK_RC(MPI_T_cvar_write(h, ""));
    MT_CHECK_RC(MPI_T_cvar_handle_free(&h));
}

int main(int argc, char **argv)
{
    int provided = -1, rank, size, n = 0;

    MT_CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED, "early");
    MT_CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MT_CHECK(provided == MPI_THREAD_SINGLE, "provided %d", provided);
    check_names();                       /* before MPI_Init */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    check_read_and_errors();
    check_empty_sets();
    check_runtime_write(rank, size);
    MT_CHECK_RC(MPI_T_finalize());       /* still one init in effect */
    MT_CHECK_RC(MPI_T_cvar_get_num(&n));
    MT_CHECK_RC(MPI_T_finalize());
    MT_CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED, "late");
    MT_CHECK(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED, "extra finalize");
    int rc = mt_finish();
    /* MPI_T stays usable after MPI_Finalize. */
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS ||
        MPI_T_cvar_get_num(&n) != MPI_SUCCESS || n < 20 ||
        MPI_T_finalize() != MPI_SUCCESS) {
        fprintf(stderr, "MPI_T after MPI_Finalize failed\n");
        rc = 1;
    }
    return rc;
}
