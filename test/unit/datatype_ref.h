/*
 * A naive reference model of derived datatypes for the unit tests and the
 * fuzzer: every type is a list of (displacement, blocklength, child)
 * entries, walked recursively into its typemap of basic elements.  Random
 * type trees are built both as MPI types and as reference models.
 */
#ifndef DATATYPE_REF_H
#define DATATYPE_REF_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ref ref_t;
struct ref {
    MPI_Datatype dt;          /* the library's type (NULL once freed) */
    int basic_size;           /* > 0: a basic leaf of this many bytes */
    int n;                    /* entries */
    MPI_Aint *disp;           /* bytes */
    int *bl;
    ref_t **child;            /* entries may share a child */
    ref_t *owned[4];          /* the distinct children, freed with it */
    int nowned;
    MPI_Aint lb, extent;
    MPI_Count size;
    int is_struct, resized, align;
    /* the bytes of a predefined pair type with padding */
    int nparts;
    int part_off[2], part_len[2];
};

/* One contiguous piece of the typemap. */
typedef struct { MPI_Aint off; MPI_Aint len; } ref_piece_t;

typedef struct {
    ref_piece_t *p;
    size_t n, cap;
} ref_map_t;

/* Deterministic generator state (xorshift) fed by a seed or fuzz bytes. */
typedef struct {
    uint64_t s;
    const uint8_t *data;
    size_t len, pos;
    int full;                 /* ref_random: no early leaves */
} ref_rng_t;

void ref_rng_seed(ref_rng_t *r, uint64_t seed);
void ref_rng_bytes(ref_rng_t *r, const uint8_t *data, size_t len);
uint64_t ref_rand(ref_rng_t *r, uint64_t n);   /* in [0, n) */

/* Leaf of a predefined type (index into ref_basic_types). */
ref_t *ref_basic(MPI_Datatype dt);
/* General entry list (bytes); builds no MPI type by itself. */
ref_t *ref_entries(int n, const MPI_Aint *disp, const int *bl,
                   ref_t **child, int is_struct);
void ref_free(ref_t *r);

/* Random type tree of at most `depth` levels (and a bounded typemap);
 * r->dt is committed.  NULL when building failed (message on stderr). */
ref_t *ref_random(ref_rng_t *rng, int depth);

/* Typemap of count elements, in order. */
void ref_map(const ref_t *r, MPI_Count count, ref_map_t *m);
void ref_map_free(ref_map_t *m);

/* Pack/unpack by the typemap; buf is the type's origin. */
size_t ref_pack(const ref_map_t *m, const char *buf, char *out);
size_t ref_unpack(const ref_map_t *m, char *buf, const char *in);

/* Checks r->dt against the model: bounds, size, pack/unpack and cursor
 * over random chunks.  Returns 0 or prints the mismatch and returns -1. */
int ref_check(ref_t *r, MPI_Count count, ref_rng_t *rng);

#endif
