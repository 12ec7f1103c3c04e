/* Unit tests of the core's pure logic: UCP tag encoding and matching,
 * the request pool, and argument checks on a communicator object. */
#include <check.h>
#include <stdlib.h>
#include "core/check.h"
#include "p2p/pt2pt.h"
#include "p2p/tag.h"

/* A receive (tag, mask) matches a sent tag as UCX does it. */
static int matches(uint64_t sent, uint64_t rtag, uint64_t mask)
{
    return ((sent ^ rtag) & mask) == 0;
}

START_TEST(tag_fields_round_trip)
{
    uint64_t t = ucmpi_tag_make(12345, UCMPI_CTX_COLL, 777, 4242);
    ck_assert_int_eq(ucmpi_tag_ctx(t), 12345);
    ck_assert_int_eq(ucmpi_tag_sub(t), UCMPI_CTX_COLL);
    ck_assert_int_eq(ucmpi_tag_src(t), 777);
    ck_assert_int_eq(ucmpi_tag_tag(t), 4242);
    ck_assert(!ucmpi_tag_is_sync(t));
    ck_assert(ucmpi_tag_is_sync(t | UCMPI_TAG_SYNC));
}
END_TEST

START_TEST(tag_extremes_do_not_overlap)
{
    uint64_t t = ucmpi_tag_make(UCMPI_TAG_MAX_CTX, UCMPI_CTX_AUX,
                                UCMPI_TAG_MAX_RANKS - 1, UCMPI_TAG_MAX);
    ck_assert_int_eq(ucmpi_tag_ctx(t), UCMPI_TAG_MAX_CTX);
    ck_assert_int_eq(ucmpi_tag_sub(t), UCMPI_CTX_AUX);
    ck_assert_int_eq(ucmpi_tag_src(t), UCMPI_TAG_MAX_RANKS - 1);
    ck_assert_int_eq(ucmpi_tag_tag(t), UCMPI_TAG_MAX);
    ck_assert(!ucmpi_tag_is_sync(t));
    ck_assert_int_ge(UCMPI_TAG_MAX, (1 << 20) - 1);   /* the standard's floor */
}
END_TEST

START_TEST(tag_matching_rules)
{
    uint64_t rtag, mask;
    uint64_t sent = ucmpi_tag_make(7, UCMPI_CTX_P2P, 3, 99) | UCMPI_TAG_SYNC;

    ucmpi_tag_recv(7, UCMPI_CTX_P2P, 3, 99, &rtag, &mask);
    ck_assert(matches(sent, rtag, mask));          /* sync bit ignored */
    ucmpi_tag_recv(7, UCMPI_CTX_P2P, 4, 99, &rtag, &mask);
    ck_assert(!matches(sent, rtag, mask));         /* other source */
    ucmpi_tag_recv(7, UCMPI_CTX_P2P, MPI_ANY_SOURCE, 99, &rtag, &mask);
    ck_assert(matches(sent, rtag, mask));
    ucmpi_tag_recv(7, UCMPI_CTX_P2P, 3, MPI_ANY_TAG, &rtag, &mask);
    ck_assert(matches(sent, rtag, mask));
    ucmpi_tag_recv(7, UCMPI_CTX_P2P, MPI_ANY_SOURCE, MPI_ANY_TAG, &rtag, &mask);
    ck_assert(matches(sent, rtag, mask));
    /* wildcards never cross communicators or sub-contexts */
    ucmpi_tag_recv(8, UCMPI_CTX_P2P, MPI_ANY_SOURCE, MPI_ANY_TAG, &rtag, &mask);
    ck_assert(!matches(sent, rtag, mask));
    ucmpi_tag_recv(7, UCMPI_CTX_COLL, MPI_ANY_SOURCE, MPI_ANY_TAG, &rtag, &mask);
    ck_assert(!matches(sent, rtag, mask));
}
END_TEST

/* On-node receives match every bit (UCX's hashed expected queue) unless
 * a field is a wildcard; unflagged sends still match them. */
START_TEST(tag_exact_receives)
{
    uint64_t rtag, mask;
    uint64_t sent = ucmpi_tag_make(7, UCMPI_CTX_P2P, 3, 99);

    ucmpi_tag_recv_exact(7, UCMPI_CTX_P2P, 3, 99, &rtag, &mask);
    ck_assert(mask == ~UINT64_C(0));
    ck_assert(matches(sent, rtag, mask));
    ck_assert(!matches(sent | UCMPI_TAG_SYNC, rtag, mask));
    ck_assert(!matches(ucmpi_tag_make(7, UCMPI_CTX_P2P, 3, 98), rtag, mask));
    ucmpi_tag_recv_exact(7, UCMPI_CTX_P2P, 3, MPI_ANY_TAG, &rtag, &mask);
    ck_assert(mask != ~UINT64_C(0));
    ck_assert(matches(sent, rtag, mask));
    ucmpi_tag_recv_exact(7, UCMPI_CTX_P2P, MPI_ANY_SOURCE, 99, &rtag, &mask);
    ck_assert(matches(sent | UCMPI_TAG_SYNC, rtag, mask));
}
END_TEST

START_TEST(request_pool_reuses_and_resets)
{
    enum { N = 1000 };
    ucmpi_request_t *r[N];
    int dups = 0;
    for (int i = 0; i < N; i++) {
        r[i] = ucmpi_request_alloc(UCMPI_REQ_RECV, NULL);
        ck_assert_ptr_nonnull(r[i]);
        ck_assert_int_eq(r[i]->magic, UCMPI_MAGIC_REQUEST);
        ck_assert_int_eq(r[i]->complete, 0);
        ck_assert_int_eq(r[i]->status.MPI_SOURCE, MPI_ANY_SOURCE);
        for (int j = 0; j < i; j++)   /* one assertion: 500k of them took seconds */
            dups += r[i] == r[j];
        r[i]->status.MPI_ERROR = MPI_ERR_OTHER;   /* dirty it */
        r[i]->complete = 1;
    }
    ck_assert_int_eq(dups, 0);
    for (int i = 0; i < N; i++) {
        ucmpi_request_free(r[i]);
        ck_assert_int_eq(r[i]->magic, UCMPI_MAGIC_FREED);
    }
    ucmpi_request_t *again = ucmpi_request_alloc(UCMPI_REQ_SEND, NULL);
    ck_assert_int_eq(again->status.MPI_ERROR, MPI_SUCCESS);
    ck_assert_int_eq(again->complete, 0);
    ck_assert_int_eq(again->kind, UCMPI_REQ_SEND);
    ucmpi_request_free(again);
}
END_TEST

/* Checks on an unconnected communicator object with MPI_ERRORS_RETURN:
 * each bad argument gives its class, good ones succeed. */
START_TEST(argument_checks)
{
    static ucmpi_group_t g = {.magic = UCMPI_MAGIC_GROUP, .refcount = 1,
                              .size = 4, .kind = UCMPI_GROUP_RANGE,
                              .first = 0, .stride = 1};
    ucmpi_comm_t c = {.magic = UCMPI_MAGIC_COMM, .refcount = 1, .rank = 0,
                      .size = 4, .remote_size = 4, .group = &g,
                      .remote_group = &g, .name = "test"};
    c.errhandler = &ucmpi_errors_return;
    ck_assert_int_eq(ucmpi_check_rank(&c, 3, 0, "t"), MPI_SUCCESS);
    ck_assert_int_eq(ucmpi_check_rank(&c, 4, 0, "t"), MPI_ERR_RANK);
    ck_assert_int_eq(ucmpi_check_rank(&c, -7, 1, "t"), MPI_ERR_RANK);
    ck_assert_int_eq(ucmpi_check_rank(&c, MPI_PROC_NULL, 0, "t"), MPI_SUCCESS);
    ck_assert_int_eq(ucmpi_check_rank(&c, MPI_ANY_SOURCE, 0, "t"), MPI_ERR_RANK);
    ck_assert_int_eq(ucmpi_check_rank(&c, MPI_ANY_SOURCE, 1, "t"), MPI_SUCCESS);
    ck_assert_int_eq(ucmpi_check_tag(&c, 0, 0, "t"), MPI_SUCCESS);
    ck_assert_int_eq(ucmpi_check_tag(&c, UCMPI_TAG_MAX, 0, "t"), MPI_SUCCESS);
    ck_assert_int_eq(ucmpi_check_tag(&c, UCMPI_TAG_MAX + 1, 0, "t"), MPI_ERR_TAG);
    ck_assert_int_eq(ucmpi_check_tag(&c, MPI_ANY_TAG, 0, "t"), MPI_ERR_TAG);
    ck_assert_int_eq(ucmpi_check_tag(&c, MPI_ANY_TAG, 1, "t"), MPI_SUCCESS);
    ck_assert_int_eq(ucmpi_check_count(&c, -1, "t"), MPI_ERR_COUNT);
    ck_assert_int_eq(ucmpi_check_dt(&c, MPI_DATATYPE_NULL, "t"), MPI_ERR_TYPE);
    ck_assert_int_eq(ucmpi_check_buf(&c, NULL, 3, MPI_INT, "t"), MPI_ERR_BUFFER);
    ck_assert_int_eq(ucmpi_check_buf(&c, NULL, 0, MPI_INT, "t"), MPI_SUCCESS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, tag_fields_round_trip);
    tcase_add_test(tc, tag_extremes_do_not_overlap);
    tcase_add_test(tc, tag_matching_rules);
    tcase_add_test(tc, tag_exact_receives);
    tcase_add_test(tc, request_pool_reuses_and_resets);
    tcase_add_test(tc, argument_checks);
    tcase_set_timeout(tc, 60);        /* a loaded machine, or ASan */
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
