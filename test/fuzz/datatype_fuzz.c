/*
 * libFuzzer target: the input bytes drive the random type-tree builder of
 * the unit tests (test/unit/datatype_refgen.c); every tree is checked
 * against the reference walker: bounds, pack, unpack, and the cursor in
 * random chunks and seeks.  Any mismatch aborts.
 */
#include "datatype_ref.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ref_rng_t g;
    if (size < 2)
        return 0;
    ref_rng_bytes(&g, data + 1, size - 1);
    g.full = data[0] & 1;
    ref_t *r = ref_random(&g, 1 + data[0] % 6);
    if (r == NULL)
        abort();
    MPI_Type_commit(&r->dt);
    if (ref_check(r, (MPI_Count)ref_rand(&g, 4), &g) != 0)
        abort();
    ref_free(r);
    return 0;
}
