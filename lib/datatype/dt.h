/* lib/datatype internals: a type compiles to a flat pre-order array of VEC and
 * LOOP nodes: docs/architecture.md "datatype: compiled nodes". */
#ifndef UCMPI_DT_H
#define UCMPI_DT_H

#include "core/errhandler.h"
#include "datatype/datatype.h"

enum { UCMPI_DTN_VEC = 1, UCMPI_DTN_LOOP = 2 };

typedef struct {
    int kind;                 /* UCMPI_DTN_* */
    uint32_t span;            /* nodes in this subtree, itself included */
    MPI_Aint disp;            /* from the enclosing base address */
    MPI_Aint stride;          /* bytes between iterations */
    MPI_Count count;          /* iterations (>= 1) */
    MPI_Count len;            /* VEC: bytes per block; LOOP: body size */
    MPI_Count size;           /* packed bytes of the node: count * len */
} ucmpi_dt_node_t;

/* What a type is made of, for element counts and external32. */
enum { UCMPI_DTK_BASIC, UCMPI_DTK_PAIR, UCMPI_DTK_DERIVED };

typedef struct ucmpi_dt_impl {
    ucmpi_dt_node_t *nodes;   /* one element, top-level siblings in order */
    uint32_t nnodes;
    int depth;                /* LOOP nesting of nodes (frames needed) */
    int kind;                 /* UCMPI_DTK_* */
    int combiner;             /* MPI_COMBINER_* */
    int align;                /* largest alignment of its basic types */
    int explicit_bounds;      /* resized somewhere: no struct padding */
    int ext32_size;           /* basic: size in external32 */
    int ext32_conv;           /* basic: UCMPI_X32_* conversion */
    int ext32_unit;           /* basic: bytes swapped as one number */
    int typeclass;            /* basic: MPI_TYPECLASS_* or 0 */
    MPI_Count nelems;         /* basic elements in one element */
    MPI_Count ext32_total;    /* bytes of one element in external32 */
    MPI_Datatype basic;       /* the only predefined type used, or NULL */
    /* envelope (derived) or pair members (pair: types[0], types[1]) */
    int ni, na, nt;
    int *ints;
    MPI_Aint *aints;
    MPI_Datatype *types;
    MPI_Count nc;             /* large-count (_c) constructors: counts */
    MPI_Count *counts;
    MPI_Datatype inner;       /* subarray/darray: equivalent built type */
    char name[MPI_MAX_OBJECT_NAME];
} ucmpi_dt_impl_t;

static inline ucmpi_dt_impl_t *ucmpi_dt_impl(MPI_Datatype dt)
{
    return (ucmpi_dt_impl_t *)dt->impl;
}

/* ---- node lists (nodes.c) ---- */
typedef struct {
    ucmpi_dt_node_t *n;
    uint32_t len, cap;
    int last_top;             /* index of the last top-level node, or -1 */
    int nomem;
} ucmpi_dt_nodebuf_t;

void ucmpi_dt_nb_init(ucmpi_dt_nodebuf_t *nb);
void ucmpi_dt_nb_fini(ucmpi_dt_nodebuf_t *nb);
/* Appends `count` copies, `stride` bytes apart starting at `disp`, of the
 * element described by nodes[0..nnodes) (packed size `size`). */
void ucmpi_dt_nb_rep(ucmpi_dt_nodebuf_t *nb, MPI_Aint disp, MPI_Count count,
                     MPI_Aint stride, const ucmpi_dt_node_t *nodes,
                     uint32_t nnodes, MPI_Count size);
int ucmpi_dt_nodes_depth(const ucmpi_dt_node_t *n, uint32_t nnodes);

/* ---- building derived types (create.c) ---- */
/* Bounds accumulated over the entries of a type being built. */
typedef struct {
    int any, any_data;
    MPI_Aint lb, ub, tlb, tub;
    MPI_Count size, nelems, ext32;
    MPI_Datatype basic;
    int mixed, align, explicit_bounds, overflow;
} ucmpi_dt_bounds_t;

typedef struct {
    ucmpi_dt_nodebuf_t nb;
    ucmpi_dt_bounds_t b;
} ucmpi_dt_builder_t;

void ucmpi_dt_builder_init(ucmpi_dt_builder_t *bd);
/* Adds `count` copies of `old`, `stride` bytes apart, from `disp`. */
void ucmpi_dt_builder_add(ucmpi_dt_builder_t *bd, MPI_Aint disp,
                          MPI_Count count, MPI_Aint stride, MPI_Datatype old);
/* Adds n_out groups, s_out bytes apart, of n_in copies s_in apart. */
void ucmpi_dt_builder_add_nested(ucmpi_dt_builder_t *bd, MPI_Aint disp,
                                 MPI_Count n_out, MPI_Aint s_out,
                                 MPI_Count n_in, MPI_Aint s_in,
                                 MPI_Datatype old);
/* Makes the new type (uncommitted, refcount 1) with a copy of its envelope,
 * taking over the builder's nodes; else an error class with *why set. */
int ucmpi_dt_builder_finish(ucmpi_dt_builder_t *bd, int combiner, int ni,
                            const int *ints, int na, const MPI_Aint *aints,
                            int nt, const MPI_Datatype *types,
                            MPI_Datatype *newtype, const char **why);
void ucmpi_dt_destroy(MPI_Datatype dt);
/* Stores the large-count part of the envelope (copied). */
int ucmpi_dt_set_counts(MPI_Datatype dt, MPI_Count nc, const MPI_Count *c);
/* Overrides bounds after finish (resized). */
void ucmpi_dt_set_bounds(MPI_Datatype dt, MPI_Aint lb, MPI_Aint extent);

/* Constructors of both forms (constructors.c), checks included; large: the
 * envelope has large counts; _block: const_bl per block; h: byte displacements */
int ucmpi_dt_contig(const char *name, int large, MPI_Count count,
                    MPI_Datatype old, MPI_Datatype *newtype);
int ucmpi_dt_vector(const char *name, int combiner, int large,
                    MPI_Count count, MPI_Count bl, MPI_Count stride,
                    MPI_Datatype old, MPI_Datatype *newtype);
int ucmpi_dt_indexed(const char *name, int combiner, int large,
                     MPI_Count count, const MPI_Count *bl, MPI_Count const_bl,
                     const MPI_Count *disp, MPI_Datatype old,
                     MPI_Datatype *newtype);
int ucmpi_dt_struct(const char *name, int large, MPI_Count count,
                    const MPI_Count *bl, const MPI_Count *disp,
                    const MPI_Datatype *types, MPI_Datatype *newtype);
int ucmpi_dt_resized(const char *name, int large, MPI_Datatype old,
                     MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype);
/* Replaces dt's envelope by (combiner, ints, old) and remembers the built
 * type `inner` (used for subarray/darray). */
int ucmpi_dt_wrap(MPI_Datatype inner, int combiner, int ni, const int *ints,
                  MPI_Datatype old, MPI_Datatype *newtype, const char **why);

/* ---- signature walks (signature.c) ---- */
/* Basic elements wholly inside the first `bytes` packed bytes of `count`
 * elements; -1 when `bytes` ends inside a basic element. */
MPI_Count ucmpi_dt_elements_in(MPI_Datatype dt, MPI_Count bytes);
/* Packed bytes taken by the first `nelems` basic elements (-1 if more
 * than count elements hold... never: extends past the type). */
MPI_Count ucmpi_dt_bytes_of_elements(MPI_Datatype dt, MPI_Count nelems);
/* Calls fn for each run of n basic elements of type `basic` in the packed
 * native stream of count elements of dt, in order. */
typedef void (*ucmpi_dt_run_fn_t)(void *arg, MPI_Datatype basic, MPI_Count n);
void ucmpi_dt_signature_walk(MPI_Datatype dt, MPI_Count count,
                             ucmpi_dt_run_fn_t fn, void *arg);

/* Converts the packed native stream of count elements of dt to external32
 * (to_ext) or back (external32.c). */
void ucmpi_dt_ext32_convert(MPI_Datatype dt, MPI_Count count, const void *in,
                            void *out, int to_ext);

/* ---- predefined types (predefined.c) ---- */
enum { UCMPI_X32_SWAP, UCMPI_X32_LONG, UCMPI_X32_ULONG, UCMPI_X32_LDBL };
MPI_Datatype ucmpi_dt_match(int typeclass, int size);
extern MPI_Datatype const ucmpi_dt_predefined[];   /* NULL-terminated */

/* Reporting helper for calls without a communicator. */
#define ucmpi_dt_err(code, fn, ...) \
    ucmpi_error(UCMPI_OBJ_NONE, NULL, (code), (fn), __VA_ARGS__)

/* Checks a type argument of an MPI call; reports MPI_ERR_TYPE. */
int ucmpi_dt_check_arg(MPI_Datatype dt, int need_commit, const char *fn,
                       const char *argname);
/* An entry point's checks: library up, type `argname` valid, outputs set. */
int ucmpi_dt_check_entry(const char *fn, MPI_Datatype dt, const char *argname,
                         int out_ok, const char *outname);

#endif /* UCMPI_DT_H */
