/* The collective in a schedule's signature, so different collectives never
 * match; from the call's name, shared by all forms of one collective. */
#include "coll/check/sched_chk.h"
#include "coll/check/sched_sig.h"
#include "p2p/tag.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
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
    if (nm->unsigned_alg)
        return NULL;
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

void ucmpi_sched_sign(ucmpi_sched_t *s, const void *tab, size_t row,
                      int n, int alg, unsigned shape)
{
    ucmpi_comm_t *c = s->comm;

    s->names.tab = tab;
    s->names.row = row;
    s->names.n = n;
    s->names.coll = ucmpi_coll_sig_comm_id(c);
    s->names.alg = alg;
    s->names.unsigned_alg = 0;
    s->shape = shape;
    /* intercomms: the groups may choose different local algorithms, so
     * the collective alone signs (with the shape: a root) */
    s->sig = ucmpi_coll_sig(s->names.coll,
                            c->is_inter ? UCMPI_COLL_SIG_ALGS - 1
                                        : (unsigned)alg,
                            shape);
    s->tag = ucmpi_coll_tag(s->tag, s->sig);
    if (s->alt_comm != NULL)
        s->alt_tag = ucmpi_coll_tag(s->alt_tag, s->sig);
}

void ucmpi_sched_sign_empty(ucmpi_sched_t *s)
{
    if (s->comm->is_inter)
        return;
    s->sig = UCMPI_COLL_SIG_EMPTY;
    s->tag = ucmpi_coll_tag(s->tag, s->sig);
}

void ucmpi_sched_shape(ucmpi_sched_t *s, unsigned shape)
{
    if (s->sig == UCMPI_COLL_SIG_EMPTY)
        return;
    if (s->names.unsigned_alg) {      /* the collective's signature stays */
        ucmpi_coll_names_t keep = s->names;
        ucmpi_sched_sign(s, NULL, 0, 0, 0, shape);
        s->names = keep;
        return;
    }
    ucmpi_sched_sign(s, s->names.tab, s->names.row, s->names.n,
                     s->names.alg, shape);
}

void ucmpi_sched_name_run(ucmpi_sched_t *s, const void *tab, size_t row,
                          int n, int alg)
{
    s->names.tab = tab;
    s->names.row = row;
    s->names.n = n;
    s->names.alg = alg;
    s->names.unsigned_alg = 1;
}

/* Signed by its collective until a builder names its algorithm: ranks in
 * another collective never take its messages. */
void ucmpi_sched_sign_new(ucmpi_sched_t *s)
{
    ucmpi_sched_sign(s, NULL, 0, 0, 0, 0);
}

static char abort_why[UCMPI_SCHED_WHY_LEN];
static int abort_news;            /* abort_why not yet reported */

const char *ucmpi_sched_abort_why(void)
{
    if (!abort_news)
        return NULL;
    abort_news = 0;
    return abort_why;
}

void ucmpi_sched_tell_why(const char *why)
{
    snprintf(abort_why, sizeof(abort_why), "%s", why);
    abort_news = 1;
}

ucmpi_sched_chk_t *ucmpi_sched_chk(ucmpi_sched_t *s)
{
    if (s->chk == NULL)
        s->chk = calloc(1, sizeof(*s->chk));
    /* (its next run starts with a fresh stall state: hook_run) */
    s->hooked = s->chk != NULL;
    return s->chk;
}

void ucmpi_sched_set_why(ucmpi_sched_t *s, const char *why)
{
    ucmpi_sched_chk_t *k = ucmpi_sched_chk(s);

    if (k == NULL)
        return;
    free(k->why);
    k->why = strdup(why);
}

const char *ucmpi_sched_plain_why(int err)
{
    if (err == MPI_ERR_TRUNCATE)
        return "a message of this collective did not have the size this "
               "rank's count and datatype give (they differ between ranks, "
               "or a peer's arguments failed a check)";
    return "collective failed";
}

int ucmpi_sched_req_why(ucmpi_request_t *req, char *buf, size_t n)
{
    ucmpi_sched_t *s = ucmpi_sched_of_req(req);
    int err = req->status.MPI_ERROR;

    if (s == NULL || err == MPI_SUCCESS || s->names.coll == 0)
        return 0;
    const char *name = ucmpi_coll_sig_coll_name(s->names.coll);
    const char *why = s->chk != NULL && s->chk->why != NULL
                          ? s->chk->why : ucmpi_sched_plain_why(err);

    /* the call that started it: MPI_Ibcast, or MPI_Bcast_init */
    if (s->persistent)
        snprintf(buf, n, "MPI_%s_init: %s", name, why);
    else
        snprintf(buf, n, "MPI_I%c%s: %s", tolower((unsigned char)name[0]),
                 name + 1, why);
    return 1;
}
