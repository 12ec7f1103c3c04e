/* Many splits with colours and keys that change every round (ties,
 * MPI_UNDEFINED, reversed keys), each result checked member by member
 * against what every rank computes on its own, plus create_group of the
 * odd ranks (a mapped channel) and dups: the one-pass allgather + context
 * id agreement must hand every participant every other's pair, at every
 * process count, power of two or not. */
#include "../mpitest.h"

#include <stdlib.h>

#define ROUNDS 150

static int color_of(int round, int r)
{
    unsigned h = (unsigned)(round * 7919 + r * 104729) * 2654435761u;
    int c = (int)(h >> 28) % 4;
    return c == 3 ? MPI_UNDEFINED : c;
}

static int key_of(int round, int r)
{
    return round % 3 == 0 ? 0 : (round % 3 == 1 ? -r : (r * 5) % 7);
}

/* World ranks with my colour, in (key, rank) order. */
static int expected(int round, int size, int color, int *members)
{
    int m = 0;
    for (int r = 0; r < size; r++)
        if (color_of(round, r) == color)
            members[m++] = r;
    for (int i = 1; i < m; i++)       /* insertion sort: stable by rank */
        for (int j = i; j > 0 && key_of(round, members[j - 1]) >
                                     key_of(round, members[j]); j--) {
            int t = members[j];
            members[j] = members[j - 1];
            members[j - 1] = t;
        }
    return m;
}

static void check_members(MPI_Comm c, const int *want, int m, int round)
{
    MPI_Group wg, g;
    int n, *idx = malloc(m * sizeof(int)), *got = malloc(m * sizeof(int));
    MPI_Comm_size(c, &n);
    MT_CHECK(n == m, "round %d: size %d, want %d", round, n, m);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(c, &g);
    for (int i = 0; i < m; i++)
        idx[i] = i;
    if (n == m) {
        MPI_Group_translate_ranks(g, m, idx, wg, got);
        for (int i = 0; i < m; i++)
            MT_CHECK(got[i] == want[i], "round %d: member %d is %d, want %d",
                     round, i, got[i], want[i]);
    }
    /* the new context works: sum of world ranks */
    int me, sum = -1, want_sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int i = 0; i < m; i++)
        want_sum += want[i];
    MT_CHECK_RC(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(sum == want_sum, "round %d: sum %d, want %d", round, sum,
             want_sum);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(idx);
    free(got);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm c, d, odd;
    MPI_Group wg, og;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *members = malloc(size * sizeof(int));

    for (int round = 0; round < ROUNDS; round++) {
        int color = color_of(round, rank);
        MT_CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, color, key_of(round, rank),
                                   &c));
        if (color == MPI_UNDEFINED) {
            MT_CHECK(c == MPI_COMM_NULL, "round %d: undefined gives a comm",
                     round);
            continue;
        }
        int m = expected(round, size, color, members);
        check_members(c, members, m, round);
        if (round % 10 == 0) {
            MT_CHECK_RC(MPI_Comm_dup(c, &d));
            check_members(d, members, m, round);
            MPI_Comm_free(&d);
        }
        MPI_Comm_free(&c);
    }

    /* the odd world ranks by create_group (participants mapped to ranks) */
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int range[1][3] = {{1, size - 1, 2}};
    if (size > 1) {
        MPI_Group_range_incl(wg, 1, range, &og);
        if (rank % 2 == 1) {
            for (int i = 0; i < 20; i++) {
                MT_CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, og, i,
                                                  &odd));
                int m = 0;
                for (int r = 1; r < size; r += 2)
                    members[m++] = r;
                check_members(odd, members, m, -1 - i);
                MPI_Comm_free(&odd);
            }
        }
        MPI_Group_free(&og);
    }
    MPI_Group_free(&wg);
    free(members);
    return mt_finish();
}
