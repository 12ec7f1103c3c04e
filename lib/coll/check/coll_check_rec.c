/* The argument check's records (bytes and type-signature hash per peer), the
 * judging of peers' records, and a verdict's text. */
#include "coll/check/coll_check_impl.h"
#include "coll/op.h"
#include "coll/check/sched_sig.h"
#include "datatype/dt.h"

#include <stdio.h>
#include <string.h>

/* ---- type signatures ---- */

/* A hash of the sequence of basic types (runs merged, so 3 x MPI_INT and
 * 1 x contiguous(3, MPI_INT) agree), and its first basic type. */
typedef struct {
    uint64_t h;
    uint64_t cur;             /* the run being merged (0: none) */
    MPI_Count run;
    int any;                  /* MPI_BYTE / MPI_PACKED: matches any */
    MPI_Datatype first;
} sig_acc_t;

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        h = (h ^ (v & 0xff)) * UINT64_C(0x100000001b3);
    return h;
}

static int32_t predefined_index(MPI_Datatype b)
{
    for (int32_t i = 0; b != NULL && ucmpi_dt_predefined[i] != NULL; i++)
        if (ucmpi_dt_predefined[i] == b)
            return i;
    return -1;
}

/* The same id in every process: by class and size (MPI_INT = MPI_INT32_T),
 * else by predefined-table place (a program may rename a predefined type). */
static uint64_t basic_id(MPI_Datatype b)
{
    const ucmpi_dt_impl_t *im = ucmpi_dt_impl(b);

    if (im->typeclass != 0)
        return ((uint64_t)im->typeclass << 32) | (uint64_t)b->size;
    return (UINT64_C(1) << 48) | (uint32_t)predefined_index(b);
}

static void sig_flush(sig_acc_t *g)
{
    if (g->run > 0)
        g->h = fnv(fnv(g->h, g->cur), (uint64_t)g->run);
    g->run = 0;
}

static void sig_run(void *arg, MPI_Datatype basic, MPI_Count n)
{
    sig_acc_t *g = arg;
    uint64_t id;

    if (n <= 0)
        return;
    if (g->first == NULL)
        g->first = basic;
    if (basic == MPI_BYTE || basic == MPI_PACKED) {
        g->any = 1;
        return;
    }
    id = basic_id(basic);
    if (id != g->cur) {
        sig_flush(g);
        g->cur = id;
    }
    g->run += n;
}

/* ---- records ---- */

/* The last (count, dt) hashed: uniform flows hash once for every peer. */
typedef struct {
    MPI_Count count;
    MPI_Datatype dt;
    uint64_t bytes, sig;
    int32_t first;
    int valid;
} sig_memo_t;

/* bytes and signature of count x dt; 0 if the arguments are invalid */
static int describe(sig_memo_t *m, MPI_Count count, MPI_Datatype dt)
{
    const char *why;
    sig_acc_t g = {UINT64_C(0xcbf29ce484222325), 0, 0, 0, NULL};

    if (m->valid && m->count == count && (count == 0 || m->dt == dt))
        return 1;
    if (count < 0)
        return 0;
    m->count = count;
    m->dt = dt;
    m->valid = 1;
    m->bytes = 0;
    m->sig = UCMPI_CCK_ANY_SIG;
    m->first = -1;
    if (count == 0)               /* any type: empty signatures match */
        return 1;
    if (ucmpi_dt_check(dt, 1, &why) != MPI_SUCCESS) {
        m->valid = 0;
        return 0;
    }
    m->bytes = (uint64_t)(count * dt->size);
    ucmpi_dt_signature_walk(dt, count, sig_run, &g);
    sig_flush(&g);
    m->sig = g.any ? UCMPI_CCK_ANY_SIG : (g.h | 1);
    m->first = predefined_index(g.first);
    return 1;
}

/* The (count, dt) of flow f between this rank (me) and peer p; 0: none,
 * -1: its arrays are missing. */
static int flow_at(const ucmpi_coll_check_flow_t *f, int rooted, int root,
                   int me, int p, MPI_Count *count, MPI_Datatype *dt)
{
    int idx = f->self_index ? me : p;

    if (rooted && ((f->who == UCMPI_CCK_ROOT && me != root) ||
                   (f->who == UCMPI_CCK_NONROOT && me == root) ||
                   (f->to_root && p != root)))
        return 0;
    if (f->vec && f->counts == NULL && f->ccounts == NULL)
        return -1;
    *count = f->counts ? f->counts[idx]
                       : f->ccounts ? f->ccounts[idx] : f->count;
    *dt = f->dts ? f->dts[idx] : f->dt;
    return 1;
}

/* Fills one side (send: r->sbytes..., else r->rbytes...) of out[p] for
 * every peer; 0 if an argument is invalid. */
static int fill_side(ucmpi_comm_t *c, const ucmpi_coll_check_args_t *a,
                     const ucmpi_coll_check_flow_t *f, int send,
                     ucmpi_cck_rec_t *out)
{
    sig_memo_t m = {0};
    int rooted = a->rooted;

    for (int p = 0; p < c->size; p++) {
        MPI_Count count = 0;
        MPI_Datatype dt = MPI_BYTE;
        ucmpi_cck_rec_t *r = &out[p];
        int has = p == c->rank ? 0 : flow_at(f, rooted, a->root, c->rank, p,
                                             &count, &dt);

        if (has == 0)
            continue;
        if (has < 0 || !describe(&m, count, dt))
            return 0;
        if (send) {
            r->sbytes = m.bytes;
            r->ssig = m.sig;
            r->sfirst = m.first;
        } else {
            r->rbytes = m.bytes;
            r->rsig = m.sig;
            r->rfirst = m.first;
        }
    }
    return 1;
}

static int32_t op_field(const ucmpi_coll_check_args_t *a, int *ok)
{
    const char *why;

    if (!a->has_op)
        return UCMPI_CCK_NO_OP;
    if (ucmpi_dt_check(a->op_dt, 1, &why) != MPI_SUCCESS ||
        ucmpi_op_check(a->op, a->op_dt, &why) != MPI_SUCCESS) {
        *ok = 0;
        return UCMPI_CCK_NO_OP;
    }
    return a->op->predefined ? a->op->id : UCMPI_CCK_USER_OP;
}

void ucmpi_cck_fill(ucmpi_comm_t *c, const ucmpi_coll_check_args_t *a,
                    const char *fn, ucmpi_cck_rec_t *out)
{
    int ok = 1;
    int32_t op = op_field(a, &ok);
    int32_t root = a->rooted ? a->root : -1;

    if (a->rooted && (a->root < 0 || a->root >= c->size)) {
        ok = 0;                   /* out of range: the call reports it */
        root = -1;
    }
    for (int p = 0; p < c->size; p++)
        out[p] = (ucmpi_cck_rec_t){.coll = ucmpi_coll_sig_id(fn),
                                   .root = root, .op = op,
                                   .sfirst = -1, .rfirst = -1};
    if (ok && (!fill_side(c, a, &a->send, 1, out) ||
               !fill_side(c, a, &a->recv, 0, out)))
        ok = 0;
    for (int p = 0; !ok && p < c->size; p++)
        out[p].invalid = 1;
}

/* ---- judging ---- */

void ucmpi_cck_worse(ucmpi_cck_verdict_t *v, const ucmpi_cck_verdict_t *c)
{
    if (v->kind == UCMPI_CCK_V_OK || c->kind < v->kind ||
        (c->kind == v->kind &&
         (c->a < v->a || (c->a == v->a && c->b < v->b))))
        *v = *c;
}

static void worse(ucmpi_cck_verdict_t *v, int kind, int a, int b,
                  int64_t va, int64_t vb, int64_t bytes)
{
    ucmpi_cck_worse(v, &(ucmpi_cck_verdict_t){.kind = kind, .a = a, .b = b,
                                              .va = va, .vb = vb,
                                              .bytes = bytes});
}

/* A disagreement of a value both ranks pass (collective, root, op),
 * told with the lower rank first so that both sides see the same. */
static void pair(ucmpi_cck_verdict_t *v, int kind, int me, int p,
                 int64_t mine, int64_t theirs)
{
    if (me < p)
        worse(v, kind, me, p, mine, theirs, 0);
    else
        worse(v, kind, p, me, theirs, mine, 0);
}

void ucmpi_cck_judge(const ucmpi_cck_rec_t *mine,
                     const ucmpi_cck_rec_t *theirs, int n, int me,
                     ucmpi_cck_verdict_t *v)
{
    *v = (ucmpi_cck_verdict_t){.kind = UCMPI_CCK_V_OK};
    for (int p = 0; p < n; p++) {
        const ucmpi_cck_rec_t *m = &mine[p], *t = &theirs[p];

        if (p == me)
            continue;
        if (m->coll != t->coll) {
            pair(v, UCMPI_CCK_V_COLL, me, p, m->coll, t->coll);
            continue;
        }
        if (m->invalid || t->invalid)
            continue;             /* the call itself reports its arguments */
        if (m->root != t->root)
            pair(v, UCMPI_CCK_V_ROOT, me, p, m->root, t->root);
        if (m->op != t->op)
            pair(v, UCMPI_CCK_V_OP, me, p, m->op, t->op);
        /* this rank judges what it receives (p judges what it sends) */
        if (t->sbytes != m->rbytes)
            worse(v, UCMPI_CCK_V_SIZE, p, me, (int64_t)t->sbytes,
                  (int64_t)m->rbytes, 0);
        else if (t->sbytes > 0 && t->ssig != m->rsig &&
                 t->ssig != UCMPI_CCK_ANY_SIG && m->rsig != UCMPI_CCK_ANY_SIG)
            worse(v, UCMPI_CCK_V_TYPE, p, me, t->sfirst, m->rfirst,
                  (int64_t)t->sbytes);
    }
}

/* ---- the verdict's class and text ---- */

int ucmpi_cck_class(const ucmpi_cck_verdict_t *v)
{
    switch (v->kind) {
    case UCMPI_CCK_V_OK:
        return MPI_SUCCESS;
    case UCMPI_CCK_V_ROOT:
        return MPI_ERR_ROOT;
    case UCMPI_CCK_V_OP:
        return MPI_ERR_OP;
    case UCMPI_CCK_V_SIZE:
        return MPI_ERR_TRUNCATE;
    case UCMPI_CCK_V_TYPE:
        return MPI_ERR_TYPE;
    default:
        return MPI_ERR_OTHER;
    }
}

static const char *op_name(int64_t id)
{
    static const char *const names[UCMPI_OP_NUM] = {
        "MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND",
        "MPI_LOR", "MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC",
        "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};

    if (id == UCMPI_CCK_USER_OP)
        return "a user op";
    if (id >= 0 && id < UCMPI_OP_NUM)
        return names[id];
    return "no op";
}

static const char *type_name(int64_t idx)
{
    for (int64_t i = 0; i <= idx; i++)
        if (ucmpi_dt_predefined[i] == NULL)
            return "?";
    return idx >= 0 ? ucmpi_dt_impl(ucmpi_dt_predefined[idx])->name : "?";
}

void ucmpi_cck_why(const ucmpi_cck_verdict_t *v, char *buf, size_t n)
{
    int len = snprintf(buf, n, "collective argument check "
                               "(UCMPI_COLL_CHECK): ");
    char *p = buf + (len > 0 && (size_t)len < n ? len : 0);
    size_t left = n - (size_t)(p - buf);

    switch (v->kind) {
    case UCMPI_CCK_V_COLL:
        snprintf(p, left, "rank %d called MPI_%s, rank %d MPI_%s", v->a,
                 ucmpi_coll_sig_coll_name((unsigned)v->va), v->b,
                 ucmpi_coll_sig_coll_name((unsigned)v->vb));
        break;
    case UCMPI_CCK_V_ROOT:
        snprintf(p, left, "rank %d passed root %lld, rank %d root %lld",
                 v->a, (long long)v->va, v->b, (long long)v->vb);
        break;
    case UCMPI_CCK_V_OP:
        snprintf(p, left, "rank %d passed op %s, rank %d %s", v->a,
                 op_name(v->va), v->b, op_name(v->vb));
        break;
    case UCMPI_CCK_V_SIZE:
        snprintf(p, left, "rank %d sends %lld bytes to rank %d, which "
                 "expects %lld (counts or datatypes differ)", v->a,
                 (long long)v->va, v->b, (long long)v->vb);
        break;
    case UCMPI_CCK_V_TYPE:
        snprintf(p, left, "rank %d sends %lld bytes of type signature "
                 "%s... to rank %d, which expects %s... (same size, other "
                 "basic types)", v->a, (long long)v->bytes, type_name(v->va),
                 v->b, type_name(v->vb));
        break;
    default:
        snprintf(p, left, "the ranks agree");
    }
}
