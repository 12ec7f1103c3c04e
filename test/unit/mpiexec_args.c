/*
 * Unit tests of mpiexec's command line parsing.
 */
#include "mpiexec.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int parse(mx_args_t *a, int *code, char **argv)
{
    int argc = 0;
    while (argv[argc] != NULL)
        argc++;
    return mx_parse_args(argc, argv, a, code);
}

START_TEST(counts_and_command)
{
    /* named arrays: mx_args_t keeps pointers into them */
    char *v1[] = {"mpiexec", "-n", "4", "./p", "-n", "x", NULL};
    char *v2[] = {"mpiexec", "-np", "3", "p", NULL};
    char *v3[] = {"mpiexec", "--np=5", "--", "-p", NULL};
    char *v4[] = {"mpiexec", "p", NULL};
    mx_args_t a;
    int code;

    unsetenv("MPIEXEC_TIMEOUT");
    ck_assert_int_eq(parse(&a, &code, v1), 0);
    ck_assert_int_eq(a.np, 4);
    ck_assert_str_eq(a.argv[0], "./p");
    ck_assert_str_eq(a.argv[1], "-n");          /* the program's own options stay */
    ck_assert_int_eq(parse(&a, &code, v2), 0);
    ck_assert_int_eq(a.np, 3);
    ck_assert_int_eq(parse(&a, &code, v3), 0);
    ck_assert_int_eq(a.np, 5);
    ck_assert_str_eq(a.argv[0], "-p");
    ck_assert_int_eq(parse(&a, &code, v4), 0);
    ck_assert_int_eq(a.np, 1);
    ck_assert_int_eq(a.bind, MX_BIND_AUTO);
}
END_TEST

START_TEST(options)
{
    char *v1[] = {"mpiexec", "--bind-to", "none", "--tag-output", "-x", "UT_VAR", "-x", "A=1",
                  "--env", "B=2", "-x", "UT_UNSET_VAR", "--timeout=2.5", "--oversubscribe",
                  "valgrind", "./p", NULL};
    char *v2[] = {"mpiexec", "--bind-to=core", "p", NULL};
    char *v3[] = {"mpiexec", "--with-ft", "ulfm", "p", NULL};
    char *v4[] = {"mpiexec", "--with-ft=ulfm", "-n", "2", "p", NULL};
    mx_args_t a;
    int code;

    setenv("UT_VAR", "val", 1);
    ck_assert_int_eq(parse(&a, &code, v1), 0);
    ck_assert_int_eq(a.bind, MX_BIND_NONE);
    ck_assert_int_eq(a.tag_output, 1);
    ck_assert(a.timeout == 2.5);
    ck_assert_int_eq(a.nenv, 3);
    ck_assert_str_eq(a.env[0], "UT_VAR=val");
    ck_assert_str_eq(a.env[1], "A=1");
    ck_assert_str_eq(a.env[2], "B=2");
    ck_assert_str_eq(a.argv[0], "valgrind");
    mx_args_free(&a);
    setenv("MPIEXEC_TIMEOUT", "7", 1);
    ck_assert_int_eq(parse(&a, &code, v2), 0);
    ck_assert_int_eq(a.bind, MX_BIND_CORE);
    ck_assert(a.timeout == 7);
    unsetenv("MPIEXEC_TIMEOUT");
    ck_assert_int_eq(a.keep_going, 0);
    ck_assert_int_eq(parse(&a, &code, v3), 0);   /* implies --disable-auto-cleanup */
    ck_assert_int_eq(a.keep_going, 1);
    ck_assert_str_eq(a.argv[0], "p");
    ck_assert_int_eq(parse(&a, &code, v4), 0);
    ck_assert_int_eq(a.keep_going, 1);
    ck_assert_int_eq(a.np, 2);
    char *v5[] = {"mpiexec", "--nameserver", "10.0.0.5:7300", "-n", "2", "p", NULL};
    ck_assert_int_eq(parse(&a, &code, v5), 0);
    ck_assert_str_eq(a.nameserver, "10.0.0.5:7300");
}
END_TEST

START_TEST(errors)
{
    mx_args_t a;
    int code;

    char **bad[] = {
        (char *[]){"mpiexec", NULL},
        (char *[]){"mpiexec", "-n", "0", "p", NULL},
        (char *[]){"mpiexec", "-n", "x", "p", NULL},
        (char *[]){"mpiexec", "-n", NULL},
        (char *[]){"mpiexec", "--bind-to", "socket", "p", NULL},
        (char *[]){"mpiexec", "--timeout", "-1", "p", NULL},
        (char *[]){"mpiexec", "--env", "NOVALUE", "p", NULL},
        (char *[]){"mpiexec", "--bogus", "p", NULL},
        (char *[]){"mpiexec", "--with-ft", "fast", "p", NULL},
        (char *[]){"mpiexec", "-n", "2", NULL},
        (char *[]){"mpiexec", "--nameserver", "noport", "p", NULL},
    };
    FILE *saved = stderr;

    stderr = fopen("/dev/null", "w");
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(parse(&a, &code, bad[i]), 1);
        ck_assert_int_eq(code, MX_EXIT_USAGE);
        mx_args_free(&a);
    }
    fclose(stderr);
    stderr = saved;
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mpiexec_args");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, counts_and_command);
    tcase_add_test(tc, options);
    tcase_add_test(tc, errors);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
