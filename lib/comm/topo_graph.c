/* Graph topologies; Dist_graph_create sends each edge to its two endpoints, one
 * message per (sender, endpoint), a sum-allreduce saying how many to expect. */
#include "p2p/pt2pt.h"
#include "core/call.h"
#include "comm/comm_internal.h"
#include "comm/topo.h"

#include <stdlib.h>
#include <string.h>

static ucmpi_topo_t *graph_topo(int nnodes, const int *index,
                                const int *edges, int rank)
{
    ucmpi_topo_t *t = calloc(1, sizeof(*t));
    if (t == NULL)
        return NULL;
    t->kind = MPI_GRAPH;
    t->nnodes = nnodes;
    t->nedges = nnodes ? index[nnodes - 1] : 0;
    t->index = ucmpi_topo_ints(index, nnodes);
    t->edges = ucmpi_topo_ints(edges, t->nedges);
    int first = rank > 0 ? index[rank - 1] : 0, deg = index[rank] - first;
    t->sources = ucmpi_topo_ints(edges + first, deg);
    t->dests = ucmpi_topo_ints(edges + first, deg);
    t->indegree = t->outdegree = deg;
    if (!t->index || !t->edges || !t->sources || !t->dests) {
        ucmpi_topo_destroy(t);
        return NULL;
    }
    return t;
}

#pragma weak MPI_Graph_create = PMPI_Graph_create
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
                      const int edges[], int reorder, MPI_Comm *comm_graph)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Graph_create");
    int rc = ucmpi_check_intra(comm_old);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm_old, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm_graph == NULL)
        return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn,
                              "comm_graph is NULL");
    if (nnodes < 0 || nnodes > comm_old->size)
        return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn,
                              "nnodes = %d is not in [0, %d]", nnodes,
                              comm_old->size);
    if (nnodes > 0 && (index == NULL || (index[nnodes - 1] > 0 && !edges)))
        return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn,
                              "index or edges is NULL");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn,
                                  "index[%d] = %d decreases", i, index[i]);
    for (int i = 0; nnodes > 0 && i < index[nnodes - 1]; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn,
                                  "edges[%d] = %d is not in [0, %d)", i,
                                  edges[i], nnodes);
    ucmpi_comm_t *n = NULL;
    rc = ucmpi_topo_comm_prefix(comm_old, nnodes, &n);
    if (rc == MPI_SUCCESS && n != NULL &&
        (n->topo = graph_topo(nnodes, index, edges, n->rank)) == NULL) {
        ucmpi_comm_release(n);
        rc = MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm_old, rc, fn, "creating the graph failed");
    *comm_graph = n ? n : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Graphdims_get = PMPI_Graphdims_get
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Graphdims_get");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_GRAPH, &t);
    if (rc == MPI_SUCCESS && (nnodes == NULL || nedges == NULL))
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, "MPI_Graphdims_get",
                            "nnodes or nedges is NULL");
    if (rc == MPI_SUCCESS) {
        *nnodes = t->nnodes;
        *nedges = t->nedges;
    }
    return rc;
}

#pragma weak MPI_Graph_get = PMPI_Graph_get
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
                   int edges[])
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Graph_get");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_GRAPH, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (maxindex < 0 || maxedges < 0 || (maxindex > 0 && !index) ||
        (maxedges > 0 && !edges))
        return ucmpi_err_comm(comm, MPI_ERR_ARG, "MPI_Graph_get",
                              "maxindex %d, maxedges %d or arrays invalid",
                              maxindex, maxedges);
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index[i];
    for (int i = 0; i < t->nedges && i < maxedges; i++)
        edges[i] = t->edges[i];
    return MPI_SUCCESS;
}

static int check_graph_rank(MPI_Comm comm, ucmpi_topo_t *t, int rank)
{
    if (rank < 0 || rank >= t->nnodes)
        return ucmpi_err_comm(comm, MPI_ERR_RANK, ucmpi_call_name(),
                              "rank %d is not in [0, %d)", rank, t->nnodes);
    return MPI_SUCCESS;
}

#pragma weak MPI_Graph_neighbors_count = PMPI_Graph_neighbors_count
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Graph_neighbors_count");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_GRAPH, &t);
    if (rc == MPI_SUCCESS)
        rc = check_graph_rank(comm, t, rank);
    if (rc == MPI_SUCCESS && nneighbors == NULL)
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "nneighbors is NULL");
    if (rc == MPI_SUCCESS)
        *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    return rc;
}

#pragma weak MPI_Graph_neighbors = PMPI_Graph_neighbors
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
                         int neighbors[])
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Graph_neighbors");
    ucmpi_topo_t *t;
    int rc = ucmpi_topo_check(comm, MPI_GRAPH, &t);
    if (rc == MPI_SUCCESS)
        rc = check_graph_rank(comm, t, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    int first = rank ? t->index[rank - 1] : 0, deg = t->index[rank] - first;
    if (maxneighbors < 0 || (maxneighbors > 0 && neighbors == NULL))
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "maxneighbors %d or neighbors invalid",
                              maxneighbors);
    for (int i = 0; i < deg && i < maxneighbors; i++)
        neighbors[i] = t->edges[first + i];
    return MPI_SUCCESS;
}

#pragma weak MPI_Graph_map = PMPI_Graph_map
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
                   const int edges[], int *newrank)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Graph_map");
    int rc = ucmpi_check_intra(comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (nnodes <= 0 || nnodes > comm->size || newrank == NULL)
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "nnodes = %d is not in [1, %d] (or newrank "
                              "NULL)", nnodes, comm->size);
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ---- Distributed graphs ---- */
static ucmpi_topo_t *dist_topo(int indeg, const int *src, const int *sw,
                               int outdeg, const int *dst, const int *dw,
                               int weighted)
{
    ucmpi_topo_t *t = calloc(1, sizeof(*t));
    if (t == NULL)
        return NULL;
    t->kind = MPI_DIST_GRAPH;
    t->weighted = weighted;
    t->indegree = indeg;
    t->outdegree = outdeg;
    t->sources = ucmpi_topo_ints(src, indeg);
    t->dests = ucmpi_topo_ints(dst, outdeg);
    if (weighted) {
        t->sweights = ucmpi_topo_ints(sw, indeg);
        t->dweights = ucmpi_topo_ints(dw, outdeg);
    }
    if (!t->sources || !t->dests ||
        (weighted && (!t->sweights || !t->dweights))) {
        ucmpi_topo_destroy(t);
        return NULL;
    }
    return t;
}

static bool unweighted(const int *w)
{
    return w == MPI_UNWEIGHTED;
}

static int check_ranks(MPI_Comm comm, int n, const int *r, const char *what)
{
    const char *fn = ucmpi_call_name();
    if (n < 0 || (n > 0 && r == NULL))
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "%s: degree %d or array invalid", what, n);
    for (int i = 0; i < n; i++)
        if (r[i] < 0 || r[i] >= comm->size)
            return ucmpi_err_comm(comm, MPI_ERR_RANK, fn,
                                  "%s[%d] = %d is not in [0, %d)", what, i,
                                  r[i], comm->size);
    return MPI_SUCCESS;
}

/* Same group as comm, with topology t (consumed). */
static int attach_new(MPI_Comm comm, ucmpi_topo_t *t, MPI_Comm *out)
{
    const char *fn = ucmpi_call_name();
    ucmpi_comm_t *n = NULL;
    int rc = t ? ucmpi_comm_create_internal(comm, comm->group, &n)
               : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        ucmpi_topo_destroy(t);
        return ucmpi_err_comm(comm, rc, fn, "creating the graph failed");
    }
    n->topo = t;
    *out = n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Dist_graph_create_adjacent = PMPI_Dist_graph_create_adjacent
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                    const int sources[],
                                    const int *sourceweights, int outdegree,
                                    const int destinations[],
                                    const int *destweights, MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Dist_graph_create_adjacent");
    int rc = ucmpi_check_intra(comm_old);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm_old, fn);
    if (rc == MPI_SUCCESS)
        rc = check_ranks(comm_old, indegree, sources, "sources");
    if (rc == MPI_SUCCESS)
        rc = check_ranks(comm_old, outdegree, destinations, "destinations");
    if (rc != MPI_SUCCESS)
        return rc;
    int weighted = !unweighted(sourceweights);
    if (comm_dist_graph == NULL ||
        (weighted && indegree > 0 && sourceweights == MPI_WEIGHTS_EMPTY) ||
        (weighted && indegree > 0 && sourceweights == NULL) ||
        (weighted != !unweighted(destweights)) ||
        (weighted && outdegree > 0 &&
         (destweights == NULL || destweights == MPI_WEIGHTS_EMPTY)))
        return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn,
                              "inconsistent weights or comm_dist_graph "
                              "NULL");
    return attach_new(comm_old,
                      dist_topo(indegree, sources, sourceweights, outdegree,
                                destinations, destweights, weighted),
                      comm_dist_graph);
}

typedef struct {
    int dir, other, weight;   /* dir 0: in-edge from other, 1: out-edge */
} edge_rec_t;

static int rec_cmp(const void *a, const void *b)
{
    const edge_rec_t *x = a, *y = b;
    if (x->dir != y->dir)
        return x->dir - y->dir;
    if (x->other != y->other)
        return x->other < y->other ? -1 : 1;
    return (x->weight > y->weight) - (x->weight < y->weight);
}

/* Sends each endpoint its edge records; returns the records for me. */
static int route_edges(ucmpi_comm_t *c, int n, const int *sources,
                       const int *degrees, const int *dests,
                       const int *weights, edge_rec_t **mine, int *nmine)
{
    int p = c->size, rc = MPI_SUCCESS, nreq = 0;
    int *cnt = calloc(2 * (size_t)p, sizeof(int));   /* msgs, records */
    int *off = calloc((size_t)p + 1, sizeof(int));
    edge_rec_t *out = NULL, *in = NULL;
    ucmpi_request_t **reqs = NULL;
    long total = 0;

    for (int i = 0; cnt && i < n; i++)
        for (int j = 0; j < degrees[i]; j++, total += 2) {
            cnt[p + sources[i]]++;
            cnt[p + dests[total / 2]]++;
        }
    if (cnt == NULL || off == NULL ||
        (out = malloc((total ? total : 1) * sizeof(*out))) == NULL ||
        (reqs = malloc(((size_t)p ? p : 1) * sizeof(*reqs))) == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    for (int q = 0; q < p; q++) {
        off[q + 1] = off[q] + cnt[p + q];
        cnt[q] = cnt[p + q] > 0;
    }
    /* bucket the records by endpoint */
    int *fill = off;              /* reuse: advanced while filling */
    int *start = malloc(((size_t)p + 1) * sizeof(int));
    if (start == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    memcpy(start, off, ((size_t)p + 1) * sizeof(int));
    for (int i = 0, e = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, e++) {
            int s = sources[i], d = dests[e];
            int w = weights == MPI_UNWEIGHTED || weights == NULL ||
                            weights == MPI_WEIGHTS_EMPTY ? 1 : weights[e];
            out[fill[s]++] = (edge_rec_t){1, d, w};
            out[fill[d]++] = (edge_rec_t){0, s, w};
        }
    ucmpi_cc_t cc;
    ucmpi_cc_init(&cc, c);
    rc = ucmpi_cc_allreduce_sum(&cc, cnt, 2 * p);
    int nmsg = cnt[c->rank], nrec = cnt[p + c->rank];
    in = malloc((nrec ? nrec : 1) * sizeof(*in));
    if (rc == MPI_SUCCESS && in == NULL)
        rc = MPI_ERR_NO_MEM;
    for (int q = 0; rc == MPI_SUCCESS && q < p; q++) {
        int k = start[q + 1] - start[q];
        if (k > 0)
            rc = ucmpi_isend(out + start[q], (MPI_Count)k * sizeof(*out),
                             MPI_BYTE, q, cc.tag, c, UCMPI_CTX_COLL,
                             UCMPI_SEND_STANDARD, &reqs[nreq++]);
    }
    int got = 0;
    for (int m = 0; rc == MPI_SUCCESS && m < nmsg; m++) {
        MPI_Status st;
        rc = ucmpi_recv(in + got, (MPI_Count)(nrec - got) * sizeof(*in),
                        MPI_BYTE, MPI_ANY_SOURCE, cc.tag, c, UCMPI_CTX_COLL,
                        &st);
        got += (int)(st.ucmpi_count / sizeof(*in));
    }
    for (int i = 0; i < nreq; i++) {
        int r = ucmpi_request_wait(reqs[i]);
        ucmpi_request_free(reqs[i]);
        if (rc == MPI_SUCCESS)
            rc = r;
    }
    free(start);
    if (rc == MPI_SUCCESS) {
        qsort(in, got, sizeof(*in), rec_cmp);
        *mine = in;
        *nmine = got;
        in = NULL;
    }
out_free:
    free(in);
    free(reqs);
    free(out);
    free(off);
    free(cnt);
    return rc;
}

#pragma weak MPI_Dist_graph_create = PMPI_Dist_graph_create
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                           const int degrees[], const int destinations[],
                           const int *weights, MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Dist_graph_create");
    int rc = ucmpi_check_intra(comm_old);
    if (rc == MPI_SUCCESS)
        rc = ucmpi_check_comm_live(comm_old, fn);
    if (rc == MPI_SUCCESS)
        rc = check_ranks(comm_old, n, sources, "sources");
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm_dist_graph == NULL || (n > 0 && degrees == NULL))
        return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn,
                              "degrees or comm_dist_graph is NULL");
    long nedges = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return ucmpi_err_comm(comm_old, MPI_ERR_ARG, fn,
                                  "degrees[%d] = %d is negative", i,
                                  degrees[i]);
        nedges += degrees[i];
    }
    rc = check_ranks(comm_old, (int)nedges, destinations, "destinations");
    if (rc != MPI_SUCCESS)
        return rc;
    edge_rec_t *recs = NULL;
    int nrecs = 0, nin = 0;
    rc = route_edges(comm_old, n, sources, degrees, destinations, weights,
                     &recs, &nrecs);
    if (rc != MPI_SUCCESS)
        return ucmpi_err_comm(comm_old, rc, fn, "exchanging edges failed");
    int *v = malloc(2 * (size_t)(nrecs ? nrecs : 1) * sizeof(int));
    if (v == NULL) {
        free(recs);
        return ucmpi_err_comm(comm_old, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    while (nin < nrecs && recs[nin].dir == 0)
        nin++;
    for (int i = 0; i < nrecs; i++) {
        v[i] = recs[i].other;
        v[nrecs + i] = recs[i].weight;
    }
    free(recs);
    int weighted = !unweighted(weights);
    ucmpi_topo_t *t = dist_topo(nin, v, v + nrecs, nrecs - nin, v + nin,
                                v + nrecs + nin, weighted);
    free(v);
    return attach_new(comm_old, t, comm_dist_graph);
}

static int check_dist(MPI_Comm comm, ucmpi_topo_t **t)
{
    return ucmpi_topo_check(comm, MPI_DIST_GRAPH, t);
}

#pragma weak MPI_Dist_graph_neighbors_count = PMPI_Dist_graph_neighbors_count
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
                                    int *outdegree, int *weighted)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Dist_graph_neighbors_count");
    ucmpi_topo_t *t;
    int rc = check_dist(comm, &t);
    if (rc == MPI_SUCCESS && (!indegree || !outdegree || !weighted))
        rc = ucmpi_err_comm(comm, MPI_ERR_ARG, fn, "an output is NULL");
    if (rc == MPI_SUCCESS) {
        *indegree = t->indegree;
        *outdegree = t->outdegree;
        *weighted = t->weighted;
    }
    return rc;
}

#pragma weak MPI_Dist_graph_neighbors = PMPI_Dist_graph_neighbors
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                              int *sourceweights, int maxoutdegree,
                              int destinations[], int *destweights)
{
    UCMPI_CALL_SCOPE const char *fn = ucmpi_call_open("MPI_Dist_graph_neighbors");
    ucmpi_topo_t *t;
    int rc = check_dist(comm, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (maxindegree < t->indegree || maxoutdegree < t->outdegree ||
        (t->indegree > 0 && !sources) || (t->outdegree > 0 && !destinations))
        return ucmpi_err_comm(comm, MPI_ERR_ARG, fn,
                              "arrays too small (in %d, out %d) or NULL",
                              t->indegree, t->outdegree);
    for (int i = 0; i < t->indegree; i++) {
        sources[i] = t->sources[i];
        if (t->weighted && !unweighted(sourceweights) && sourceweights)
            sourceweights[i] = t->sweights[i];
    }
    for (int i = 0; i < t->outdegree; i++) {
        destinations[i] = t->dests[i];
        if (t->weighted && !unweighted(destweights) && destweights)
            destweights[i] = t->dweights[i];
    }
    return MPI_SUCCESS;
}
