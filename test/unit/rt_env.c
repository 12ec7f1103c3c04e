/*
 * Unit tests of the runtime client's pure helpers: launcher detection,
 * rank lists (PMIX_LOCAL_PEERS), node numbering.
 */
#include "rt_env.h"

#include <check.h>
#include <stdlib.h>

static const char *launcher_vars[] = {
    "SLURM_STEP_ID", "SLURM_STEPID", "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS",
    "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMI_FD", "PMIX_NAMESPACE",
    "PMIX_SERVER_URI41", NULL};

static void clean_env(void)
{
    for (int i = 0; launcher_vars[i] != NULL; i++)
        unsetenv(launcher_vars[i]);
}

START_TEST(parse_ranks)
{
    int *r, n;

    ck_assert_int_eq(ucmpi_rt_parse_ranks("5,0,1", &r, &n), 0);
    ck_assert_int_eq(n, 3);
    ck_assert(r[0] == 0 && r[1] == 1 && r[2] == 5);
    free(r);
    ck_assert_int_eq(ucmpi_rt_parse_ranks("2-4,7", &r, &n), 0);
    ck_assert_int_eq(n, 4);
    ck_assert(r[0] == 2 && r[2] == 4 && r[3] == 7);
    free(r);
    ck_assert_int_eq(ucmpi_rt_parse_ranks("0-99", &r, &n), 0);   /* grows its array */
    ck_assert(n == 100 && r[99] == 99);
    free(r);
    ck_assert_int_eq(ucmpi_rt_parse_ranks("", &r, &n), 0);
    ck_assert_int_eq(n, 0);
    free(r);
    ck_assert_int_eq(ucmpi_rt_parse_ranks("a", &r, &n), -1);
    ck_assert_int_eq(ucmpi_rt_parse_ranks("3-1", &r, &n), -1);
    ck_assert_int_eq(ucmpi_rt_parse_ranks("1;2", &r, &n), -1);
    ck_assert_int_eq(ucmpi_rt_parse_ranks("-1", &r, &n), -1);
}
END_TEST

START_TEST(compact_nodes)
{
    uint32_t ids[6] = {7, 3, 7, 100, 3, 7};
    int node_of[6], nn;

    ck_assert_int_eq(ucmpi_rt_compact_nodes(ids, 6, node_of, &nn), 0);
    ck_assert_int_eq(nn, 3);
    ck_assert(node_of[0] == 1 && node_of[1] == 0 && node_of[2] == 1);
    ck_assert(node_of[3] == 2 && node_of[4] == 0 && node_of[5] == 1);
}
END_TEST

START_TEST(launcher_detection)
{
    char what[128];

    clean_env();
    ck_assert_int_eq(ucmpi_rt_launcher_visible(what, sizeof(what)), 0);
    ck_assert_int_eq(ucmpi_rt_pmix_env_present(), 0);
    setenv("SLURM_NTASKS", "8", 1);          /* batch script, no step: no launcher */
    ck_assert_int_eq(ucmpi_rt_launcher_visible(what, sizeof(what)), 0);
    setenv("SLURM_STEP_ID", "0", 1);
    ck_assert_int_eq(ucmpi_rt_launcher_visible(what, sizeof(what)), 1);
    ck_assert_str_eq(what, "a Slurm step of 8 tasks");
    setenv("SLURM_STEP_NUM_TASKS", "1", 1);  /* srun -n 1: a singleton is fine */
    ck_assert_int_eq(ucmpi_rt_launcher_visible(what, sizeof(what)), 0);
    clean_env();
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    ck_assert_int_eq(ucmpi_rt_launcher_visible(what, sizeof(what)), 1);
    clean_env();
    setenv("PMI_FD", "5", 1);
    ck_assert_int_eq(ucmpi_rt_launcher_visible(what, sizeof(what)), 1);
    setenv("PMI_SIZE", "1", 1);
    ck_assert_int_eq(ucmpi_rt_launcher_visible(what, sizeof(what)), 0);
    clean_env();
    setenv("PMIX_SERVER_URI41", "x", 1);
    ck_assert_int_eq(ucmpi_rt_pmix_env_present(), 1);
    clean_env();
    setenv("PMIX_NAMESPACE", "x", 1);
    ck_assert_int_eq(ucmpi_rt_pmix_env_present(), 1);
    clean_env();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_env");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, parse_ranks);
    tcase_add_test(tc, compact_nodes);
    tcase_add_test(tc, launcher_detection);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
