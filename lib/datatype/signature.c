/* Type signatures (basic elements, walked through the envelope) for partial
 * receives' element counts and external32; recursion depth = nesting depth. */
#include "dt.h"

/* Entries of a derived type: `n` copies of `child`, in typemap order.
 * Large-count (_c) types keep their counts in im->counts. */
static MPI_Count nentries(ucmpi_dt_impl_t *im)
{
    switch (im->combiner) {
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_STRUCT:
        return im->nc ? im->counts[0] : im->ints[0];
    default:
        return 1;
    }
}

static MPI_Datatype entry(MPI_Datatype dt, MPI_Count i, MPI_Count *n)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    MPI_Datatype old = im->types[0];
    MPI_Count c0 = im->nc ? im->counts[0] : im->ni ? im->ints[0] : 0;
    MPI_Count c1 = im->nc > 1 ? im->counts[1] : im->ni > 1 ? im->ints[1] : 0;
    switch (im->combiner) {
    case MPI_COMBINER_CONTIGUOUS:
        *n = c0;
        break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
        *n = c0 * c1;
        break;
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
        *n = im->nc ? im->counts[1 + i] : im->ints[1 + i];
        break;
    case MPI_COMBINER_STRUCT:
        *n = im->nc ? im->counts[1 + i] : im->ints[1 + i];
        old = im->types[i];
        break;
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
        *n = old->size ? dt->size / old->size : 0;
        break;
    default:  /* dup, resized, f90 */
        *n = 1;
    }
    return old;
}

/* Elements wholly inside the first r bytes of one element (r <= size). */
static MPI_Count elems_part(MPI_Datatype dt, MPI_Count r)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    MPI_Count total = 0;

    if (r == 0)
        return 0;
    if (r == dt->size)
        return im->nelems;
    if (im->kind == UCMPI_DTK_BASIC)
        return -1;
    if (im->kind == UCMPI_DTK_PAIR)
        return r == im->types[0]->size ? 1 : -1;
    if (im->basic && ucmpi_dt_impl(im->basic)->kind == UCMPI_DTK_BASIC)
        return r % im->basic->size ? -1 : r / im->basic->size;
    for (MPI_Count i = 0, ne = nentries(im); i < ne; i++) {
        MPI_Count n;
        MPI_Datatype c = entry(dt, i, &n);
        if (c->size == 0 || n == 0)
            continue;
        MPI_Count cs = n * c->size;
        if (r >= cs) {
            total += n * ucmpi_dt_impl(c)->nelems;
            r -= cs;
            if (r == 0)
                return total;
            continue;
        }
        total += r / c->size * ucmpi_dt_impl(c)->nelems;
        MPI_Count sub = elems_part(c, r % c->size);
        return sub < 0 ? -1 : total + sub;
    }
    return -1;
}

MPI_Count ucmpi_dt_elements_in(MPI_Datatype dt, MPI_Count bytes)
{
    if (dt->size == 0)
        return 0;
    MPI_Count part = elems_part(dt, bytes % dt->size);
    if (part < 0)
        return -1;
    return bytes / dt->size * ucmpi_dt_impl(dt)->nelems + part;
}

bool ucmpi_dt_partial(MPI_Datatype dt, size_t bytes)
{
    return dt->size > 1 && ucmpi_dt_elements_in(dt, (MPI_Count)bytes) < 0;
}

/* Bytes of the first k elements of one element (k <= nelems). */
static MPI_Count bytes_part(MPI_Datatype dt, MPI_Count k)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);
    MPI_Count total = 0;

    if (k == 0)
        return 0;
    if (k == im->nelems)
        return dt->size;
    if (im->kind == UCMPI_DTK_PAIR)
        return im->types[0]->size;
    if (im->basic && ucmpi_dt_impl(im->basic)->kind == UCMPI_DTK_BASIC)
        return k * im->basic->size;
    for (MPI_Count i = 0, ne = nentries(im); i < ne; i++) {
        MPI_Count n;
        MPI_Datatype c = entry(dt, i, &n);
        MPI_Count ce = ucmpi_dt_impl(c)->nelems;
        if (ce == 0 || n == 0)
            continue;
        if (k >= n * ce) {
            total += n * c->size;
            k -= n * ce;
            if (k == 0)
                return total;
            continue;
        }
        return total + k / ce * c->size + bytes_part(c, k % ce);
    }
    return total;
}

MPI_Count ucmpi_dt_bytes_of_elements(MPI_Datatype dt, MPI_Count nelems)
{
    MPI_Count per = ucmpi_dt_impl(dt)->nelems;
    if (per == 0)
        return 0;
    return nelems / per * dt->size + bytes_part(dt, nelems % per);
}

void ucmpi_dt_signature_walk(MPI_Datatype dt, MPI_Count count,
                             ucmpi_dt_run_fn_t fn, void *arg)
{
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(dt);

    if (count <= 0 || im->nelems == 0)
        return;
    if (im->kind == UCMPI_DTK_BASIC) {
        fn(arg, dt, count);
        return;
    }
    if (im->kind == UCMPI_DTK_PAIR) {
        for (MPI_Count c = 0; c < count; c++) {
            fn(arg, im->types[0], 1);
            fn(arg, im->types[1], 1);
        }
        return;
    }
    if (im->basic && ucmpi_dt_impl(im->basic)->kind == UCMPI_DTK_BASIC) {
        fn(arg, im->basic, count * im->nelems);
        return;
    }
    for (MPI_Count c = 0; c < count; c++)
        for (MPI_Count i = 0, ne = nentries(im); i < ne; i++) {
            MPI_Count n;
            MPI_Datatype ch = entry(dt, i, &n);
            ucmpi_dt_signature_walk(ch, n, fn, arg);
        }
}
