/*
 * Unit tests of the backoff of test-style calls on an oversubscribed
 * node (lib/p2p/progress_poll.h): when a run of empty polls gives the core
 * away, and that any event starts the count again.
 */
#include "p2p/progress_poll.h"

#include <check.h>

START_TEST(yields_from_after_on)
{
    unsigned misses = 0;

    ck_assert(!ucmpi_poll_backoff_step(&misses, 3, 0));
    ck_assert(!ucmpi_poll_backoff_step(&misses, 3, 0));
    ck_assert(ucmpi_poll_backoff_step(&misses, 3, 0));
    /* and every empty poll after that, without the count wrapping */
    for (int i = 0; i < 1000; i++)
        ck_assert(ucmpi_poll_backoff_step(&misses, 3, 0));
    ck_assert_uint_eq(misses, 3);
}
END_TEST

START_TEST(events_reset)
{
    unsigned misses = 0;

    ck_assert(!ucmpi_poll_backoff_step(&misses, 2, 0));
    ck_assert(ucmpi_poll_backoff_step(&misses, 2, 0));
    ck_assert(!ucmpi_poll_backoff_step(&misses, 2, 5));   /* busy: keep it */
    ck_assert_uint_eq(misses, 0);
    ck_assert(!ucmpi_poll_backoff_step(&misses, 2, 0));
    ck_assert(ucmpi_poll_backoff_step(&misses, 2, 0));
}
END_TEST

START_TEST(after_one_and_never)
{
    unsigned misses = 0;

    ck_assert(ucmpi_poll_backoff_step(&misses, 1, 0));     /* every miss */
    ck_assert(!ucmpi_poll_backoff_step(&misses, 1, 1));
    ck_assert(ucmpi_poll_backoff_step(&misses, 1, 0));
    misses = 0;
    for (int i = 0; i < 100; i++)                        /* 0: never */
        ck_assert(!ucmpi_poll_backoff_step(&misses, 0, 0));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("progress_poll");
    TCase *tc = tcase_create("backoff");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, yields_from_after_on);
    tcase_add_test(tc, events_reset);
    tcase_add_test(tc, after_one_and_never);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
