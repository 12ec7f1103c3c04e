/*
 * Which collective a schedule belongs to, for its signature (lib/p2p/tag.h:
 * ucmpi_coll_sig): ranks that call different collectives at one
 * sequence number (an erroneous program: rank 0 in MPI_Bcast, rank 1 in
 * MPI_Reduce) then never match each other's messages, and the stall
 * probe reports them instead of a hang or wrong data.  The id comes from
 * the name of the MPI call (ucmpi_coll_check_comm records it), so the
 * blocking, nonblocking, persistent and large-count forms of one
 * collective share it.
 */
#include "coll/sched_sig.h"
#include "p2p/tag.h"

#include <string.h>
#include <strings.h>

/* index + 1 is the id (0: not a collective call, e.g. comm management);
 * at most UCMPI_COLL_SIG_COLLS - 1 names */
static const char *const colls[] = {
    "Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv",
    "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw",
    "Reduce", "Allreduce", "Reduce_scatter", "Reduce_scatter_block", "Scan",
    "Exscan", "Neighbor_allgather", "Neighbor_allgatherv",
    "Neighbor_alltoall", "Neighbor_alltoallv", "Neighbor_alltoallw",
    "Coll_check",                 /* UCMPI_COLL_CHECK's exchange */
};
#define NCOLLS ((unsigned)(sizeof(colls) / sizeof(colls[0])))

_Static_assert(sizeof(colls) / sizeof(colls[0]) < UCMPI_COLL_SIG_COLLS,
               "collective ids must fit the signature (lib/p2p/tag.h)");

static int ends_with(const char *p, size_t *len, const char *suffix)
{
    size_t n = strlen(suffix);

    if (*len <= n || strncmp(p + *len - n, suffix, n) != 0)
        return 0;
    *len -= n;
    return 1;
}

unsigned ucmpi_coll_sig_id(const char *fn)
{
    const char *p = fn;
    size_t len;

    if (p == NULL || strncmp(p, "MPI_", 4) != 0)
        return 0;
    p += 4;
    if (p[0] == 'I' && p[1] >= 'a' && p[1] <= 'z')
        p++;                      /* MPI_Ibcast: as MPI_Bcast */
    len = strlen(p);
    (void)ends_with(p, &len, "_c");
    (void)ends_with(p, &len, "_init");
    for (unsigned i = 0; i < NCOLLS; i++)
        if (strncasecmp(p, colls[i], len) == 0 && colls[i][len] == '\0')
            return i + 1;
    return 0;
}

unsigned ucmpi_coll_sig_comm_id(ucmpi_comm_t *c)
{
    /* a build per call (v forms, persistent inits) repeats one name:
     * ~20 string compares become one pointer compare */
    if (c->coll.id_fn != c->coll.fn || c->coll.fn == NULL) {
        c->coll.id = ucmpi_coll_sig_id(c->coll.fn);
        c->coll.id_fn = c->coll.fn;
    }
    return c->coll.id;
}

const char *ucmpi_coll_sig_coll_name(unsigned id)
{
    return id >= 1 && id <= NCOLLS ? colls[id - 1] : "another call";
}

/* shapes the decoder tries (ring_segmented's segment counts, roots);
 * the smallest first: shape 0 is by far the most common */
#define DECODE_SHAPES 64

const char *ucmpi_coll_sig_alg_name(const ucmpi_coll_names_t *nm,
                                    unsigned sig)
{
    for (unsigned sh = 0; sh < DECODE_SHAPES; sh++)
        for (int i = 0; nm->tab != NULL && i < nm->n; i++) {
            /* every table's rows start like ucmpi_coll_alg_t's */
            const struct { int id; const char *name; } *a =
                (const void *)((const char *)nm->tab + (size_t)i * nm->row);
            if (a->name != NULL &&
                ucmpi_coll_sig(nm->coll, (unsigned)a->id, sh) == sig)
                return a->name;
        }
    return NULL;
}

unsigned ucmpi_coll_sig_coll_of(unsigned sig)
{
    for (unsigned sh = 0; sh < DECODE_SHAPES; sh++)
        for (unsigned c = 1; c <= NCOLLS; c++)
            for (unsigned alg = 0; alg < UCMPI_COLL_SIG_ALGS; alg++)
                if (ucmpi_coll_sig(c, alg, sh) == sig)
                    return c;
    return 0;
}
