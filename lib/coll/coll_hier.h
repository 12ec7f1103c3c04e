/* The node-aware (hierarchical) algorithms' views of a layout (coll.h):
 * group views over the layout's arrays or schedule scratch. */
#ifndef UCMPI_COLL_HIER_H
#define UCMPI_COLL_HIER_H

#include "coll/coll.h"
#include "coll/coll_util.h"

/* The caller's node: its members, ascending. */
ucmpi_coll_grp_t ucmpi_hier_node(const ucmpi_coll_layout_t *l);
/* Every rank, grouped by node (the layout's members order): chains and
 * rings over it cross the network once per node. */
ucmpi_coll_grp_t ucmpi_hier_all(const ucmpi_coll_layout_t *l);
/* Position of comm rank r in that order, and its node. */
int ucmpi_hier_pos(const ucmpi_coll_layout_t *l, int r);
int ucmpi_hier_node_at(const ucmpi_coll_layout_t *l, int pos);
/* One rank per node (member index root_node is `root`, others the
 * leaders); map in s's scratch.  rank: my node if I am its head, else -1. */
int ucmpi_hier_heads(ucmpi_sched_t *s, const ucmpi_coll_layout_t *l,
                     int root, ucmpi_coll_grp_t *g);
/* Whether the hierarchical algorithm applies: more than one node and more
 * than one rank on some node (else it only adds a phase). */
int ucmpi_hier_useful(ucmpi_comm_t *c);
/* Every node a block of consecutive ranks (rank order = node order). */
int ucmpi_hier_contiguous(ucmpi_comm_t *c);

#endif
