/* Datatype helpers for RMA: the byte runs a (datatype, count) covers, the basic
 * type behind a derived type, and wire ids of predefined objects. */
#include "rma/rma.h"
#include "datatype/dt.h"

#include <stdlib.h>
#include <string.h>

/* Runs of a derived type from the datatype engine's iov walk: no limit on
 * the span the type covers. */
static int segs_generic(MPI_Datatype dt, MPI_Count count,
                        ucmpi_rma_seg_t **segs, size_t *nsegs)
{
    ucmpi_dt_iov_t *v = NULL;
    size_t n = 0;

    if (ucmpi_dt_iov(dt, NULL, count, &v, &n) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    ucmpi_rma_seg_t *s = malloc((n ? n : 1) * sizeof(*s));
    if (s == NULL) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    for (size_t i = 0; i < n; i++)
        s[i] = (ucmpi_rma_seg_t){v[i].off, (uint64_t)v[i].len};
    free(v);
    *segs = s;
    *nsegs = n;
    return MPI_SUCCESS;
}

int ucmpi_rma_segs(MPI_Datatype dt, MPI_Count count, ucmpi_rma_seg_t **segs,
                   size_t *nsegs)
{
    if (count == 0 || dt->size == 0) {
        *segs = NULL;
        *nsegs = 0;
        return MPI_SUCCESS;
    }
    if (dt->contig) {
        ucmpi_rma_seg_t *s = malloc(sizeof(*s));
        if (s == NULL)
            return MPI_ERR_NO_MEM;
        *s = (ucmpi_rma_seg_t){dt->true_lb, (uint64_t)(dt->size * count)};
        *segs = s;
        *nsegs = 1;
        return MPI_SUCCESS;
    }
    return segs_generic(dt, count, segs, nsegs);
}

/* ---- basic type of a derived type, through the envelope calls ---- */
int PMPI_Type_get_envelope(MPI_Datatype, int *, int *, int *, int *);
int PMPI_Type_get_contents(MPI_Datatype, int, int, int, int[], MPI_Aint[],
                           MPI_Datatype[]);
int PMPI_Type_free(MPI_Datatype *);

MPI_Datatype ucmpi_rma_basic_type(MPI_Datatype dt)
{
    int ni, na, nd, comb;

    if (dt->predefined)
        return dt;
    if (PMPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) != MPI_SUCCESS ||
        nd < 1)
        return MPI_DATATYPE_NULL;
    int *ints = malloc(sizeof(int) * (ni + 1));
    MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (na + 1));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * nd);
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    if (ints && addrs && types &&
        PMPI_Type_get_contents(dt, ni, na, nd, ints, addrs, types) ==
            MPI_SUCCESS) {
        basic = ucmpi_rma_basic_type(types[0]);
        for (int i = 1; i < nd; i++)
            if (ucmpi_rma_basic_type(types[i]) != basic)
                basic = MPI_DATATYPE_NULL;
        for (int i = 0; i < nd; i++)
            if (!types[i]->predefined)
                PMPI_Type_free(&types[i]);
    }
    free(ints);
    free(addrs);
    free(types);
    return basic;
}

/* ---- wire ids ---- */
/* Types are indexes into ucmpi_dt_predefined: its first NTYPES entries,
 * which end before MPI_INTEGER16 (never an RMA type). */
#define NTYPES 63

static MPI_Op const op_table[] = {
    MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
    MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE,
    MPI_NO_OP,
};
#define NOPS ((int)(sizeof(op_table) / sizeof(op_table[0])))

int ucmpi_rma_type_id(MPI_Datatype dt)
{
    for (int i = 0; i < NTYPES; i++)
        if (ucmpi_dt_predefined[i] == dt)
            return i;
    return -1;
}

MPI_Datatype ucmpi_rma_type_of(int id)
{
    return id >= 0 && id < NTYPES ? ucmpi_dt_predefined[id]
                                  : MPI_DATATYPE_NULL;
}

int ucmpi_rma_op_id(MPI_Op op)
{
    for (int i = 0; i < NOPS; i++)
        if (op_table[i] == op)
            return i;
    return -1;
}

MPI_Op ucmpi_rma_op_of(int id)
{
    return id >= 0 && id < NOPS ? op_table[id] : MPI_OP_NULL;
}
