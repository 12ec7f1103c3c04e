/* Pure topology arithmetic: MPI_Dims_create and row-major cartesian maps. */
#include "comm/topo.h"

#include <stdlib.h>

/* Divisors of m, ascending (at most 1536 for an int). */
static int divisors(int m, int *out)
{
    int n = 0, hi[800], nhi = 0;
    for (long d = 1; d * d <= m; d++)
        if (m % d == 0) {
            out[n++] = (int)d;
            if (d * d != m)
                hi[nhi++] = (int)(m / d);
        }
    while (nhi > 0)
        out[n++] = hi[--nhi];
    return n;
}

typedef struct {
    const int *div;
    int ndiv, k;
    int cur[64], best[64];
    int best_spread;
} dims_search_t;

/* Choose cur[i..k-1] non-increasing, each <= maxv, product m. */
static void search(dims_search_t *s, int i, int m, int maxv)
{
    if (i == s->k - 1) {
        if (m > maxv)
            return;
        s->cur[i] = m;
        int spread = s->cur[0] - m;
        /* smallest spread (max - min); among equals, the larger small
         * values (compared from the smallest up), as MPICH chooses */
        int better = spread < s->best_spread;
        for (int j = s->k - 1; !better && spread == s->best_spread && j >= 0;
             j--) {
            if (s->cur[j] != s->best[j]) {
                better = s->cur[j] > s->best[j];
                break;
            }
        }
        if (better) {
            s->best_spread = spread;
            for (int j = 0; j < s->k; j++)
                s->best[j] = s->cur[j];
        }
        return;
    }
    for (int j = s->ndiv - 1; j >= 0; j--) {
        int d = s->div[j];
        if (d > maxv || m % d)
            continue;
        /* d is the largest of the remaining k-i values: d^(k-i) >= m */
        long p = 1;
        for (int t = i; t < s->k && p < m; t++)
            p *= d;
        if (p < m)
            break;
        if (i > 0 && s->cur[0] - d > s->best_spread)
            break;
        s->cur[i] = d;
        search(s, i + 1, m / d, d);
    }
}

int ucmpi_dims_balance(int nnodes, int ndims, int *dims)
{
    long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return MPI_ERR_DIMS;
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            nfree++;
    }
    if (nnodes <= 0 || fixed == 0 || nnodes % fixed != 0 ||
        (nfree == 0 && fixed != nnodes) || nfree > 64)
        return MPI_ERR_DIMS;
    if (nfree == 0)
        return MPI_SUCCESS;
    int m = (int)(nnodes / fixed);
    int *div = malloc(1600 * sizeof(int));
    if (div == NULL)
        return MPI_ERR_NO_MEM;
    dims_search_t s = {.div = div, .k = nfree, .best_spread = m + 1};
    s.ndiv = divisors(m, div);
    search(&s, 0, m, m);
    free(div);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = s.best[j++];
    return MPI_SUCCESS;
}

void ucmpi_cart_coords(const int *dims, int ndims, int rank, int *coords)
{
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = rank % dims[i];
        rank /= dims[i];
    }
}

int ucmpi_cart_rank(const int *dims, const int *periods, int ndims,
                    const int *coords)
{
    int rank = 0;
    for (int i = 0; i < ndims; i++) {
        int c = coords[i];
        if (c < 0 || c >= dims[i]) {
            if (!periods[i])
                return -1;
            c %= dims[i];
            if (c < 0)
                c += dims[i];
        }
        rank = rank * dims[i] + c;
    }
    return rank;
}

void ucmpi_cart_shift(const int *dims, const int *periods, int ndims,
                      int rank, int dir, int disp, int *src, int *dst)
{
    int coords[64];
    ucmpi_cart_coords(dims, ndims, rank, coords);
    int me = coords[dir];
    coords[dir] = me + disp;
    int r = ucmpi_cart_rank(dims, periods, ndims, coords);
    *dst = r < 0 ? MPI_PROC_NULL : r;
    coords[dir] = me - disp;
    r = ucmpi_cart_rank(dims, periods, ndims, coords);
    *src = r < 0 ? MPI_PROC_NULL : r;
}
