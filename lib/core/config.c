/* The one table of tunables (name, type, default, description): read from
 * UCMPI_<NAME>, printed by ucmpi_info, exposed as MPI_T control variables. */
#include "core/config_table.h"
#include "core/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ucmpi_config_entry_t ucmpi_config_table[] = {
    /* tools */
    {"PROFILE", UCMPI_CFG_STR, "",
     "File name: at MPI_Finalize rank 0 writes there a self-contained HTML "
     "picture of the run's communication (and the same data as JSON "
     "beside it, .json); empty: off"},
    {"TUNING_FILE", UCMPI_CFG_STR, "",
     "Collective selection file written by ucmpi_tune (rules: algorithm by "
     "collective, ranks and bytes; threshold values by name; docs/tuning.md), "
     "read at init; empty or a bad file: the built-in table"},
    /* progress engine */
    {"WAIT_MODE", UCMPI_CFG_STR, "auto",
     "How waiting ranks behave: poll, yield, block, or auto (yield when "
     "more ranks than cores share the node)"},
    {"POLL_YIELD_AFTER", UCMPI_CFG_LONG, "1",
     "When more ranks than cores share the node: test-style calls "
     "(MPI_Test*, MPI_Iprobe, ...) give the core away from this many "
     "empty calls in a row on (0: never)"},
    {"EAGER_SYNC_INTERVAL", UCMPI_CFG_LONG, "256",
     "Flow control: every Nth small standard send to one peer is "
     "synchronous, so unexpected messages cannot pile up without bound"},
    {"FT", UCMPI_CFG_STR, "",
     "ulfm: fault tolerance (ULFM) under a launcher other than ucmpi's "
     "mpiexec (srun --mpi=pmix --no-kill -K0): a keeper process holds the "
     "rank's PMIx connection so that its death does not end the job "
     "(read by the runtime at MPI_Init; mpiexec takes --with-ft ulfm)"},
    {"SYNC_FLAG_ALWAYS", UCMPI_CFG_LONG, "0",
     "1: synchronous sends flag their tag everywhere and receives ignore "
     "the flag (UCX's wildcard expected list); 0: ranks on one node use "
     "UCX's synchronous send, and receives of up to 64 bytes from them "
     "match exactly (UCX's hashed expected queue, fewer instructions)"},
    {"P2P_HUGEPAGE_MIN", UCMPI_CFG_LONG, "1048576",
     "Contiguous sends and receives of at least this many bytes between "
     "ranks of this node put the 2 MiB-aligned chunks their buffer overlaps "
     "on transparent huge pages (MADV_COLLAPSE) once used P2P_HUGEPAGE_REUSE "
     "times: the receiver's CMA copy pins the sender's pages one by one, "
     "~3x faster from huge pages (0: never)"},
    {"P2P_HUGEPAGE_REUSE", UCMPI_CFG_LONG, "8",
     "The message in a 2 MiB chunk on which P2P_HUGEPAGE_MIN collapses it "
     "(a first collapse costs ~0.5 ms per chunk, repaid after a few uses)"},
    {"DPM_PEERS", UCMPI_CFG_LONG, "1024",
     "Processes of other jobs (connected, accepted or spawned) a process "
     "can reach at once; their table is sized at MPI_Init"},
    {"DPM_ACCEPT_TIMEOUT", UCMPI_CFG_LONG | UCMPI_CFG_RUNTIME, "0",
     "Seconds MPI_Comm_accept waits for a connect before failing with "
     "MPI_ERR_PORT (0: wait for ever, as the standard allows)"},
    {"DPM_CONNECT_TIMEOUT", UCMPI_CFG_LONG | UCMPI_CFG_RUNTIME, "60",
     "Seconds MPI_Comm_connect waits for the port's MPI_Comm_accept before "
     "failing with MPI_ERR_PORT (0: wait for ever)"},
    {"BOUNCE_LIMIT", UCMPI_CFG_LONG, "65536",
     "Non-contiguous messages up to this size are packed into a bounce "
     "buffer; larger ones stream through UCX generic datatypes"},
    /* collectives: algorithm forcing (empty = automatic selection) */
    {"BARRIER_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force a barrier algorithm"},
    {"BCAST_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force a bcast algorithm"},
    {"REDUCE_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force a reduce algorithm"},
    {"ALLREDUCE_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force an allreduce algorithm"},
    {"REDUCE_SCATTER_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "",
     "Force a reduce_scatter (and reduce_scatter_block) algorithm"},
    {"SCAN_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force a scan/exscan algorithm"},
    {"GATHER_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force a gather algorithm"},
    {"SCATTER_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force a scatter algorithm"},
    {"ALLGATHER_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force an allgather algorithm"},
    {"ALLTOALL_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "", "Force an alltoall algorithm"},
    {"ALLGATHERV_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "",
     "Force an allgatherv algorithm (ring, bruck, linear)"},
    {"ALLTOALLV_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "",
     "Force an alltoallv/alltoallw algorithm (scattered, pairwise)"},
    {"GATHERV_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "",
     "Force a gatherv algorithm (linear, binomial)"},
    {"SCATTERV_ALGORITHM", UCMPI_CFG_STR | UCMPI_CFG_RUNTIME, "",
     "Force a scatterv algorithm (linear, binomial)"},
    {"ALLTOALL_WINDOW", UCMPI_CFG_LONG, "32",
     "Peers exchanged per round by the scattered alltoall(v,w)"},
    {"ALLREDUCE_SEGMENT", UCMPI_CFG_LONG, "524288",
     "Bytes per pipeline segment of the ring_segmented allreduce"},
    {"REDUCE_SEGMENT", UCMPI_CFG_LONG, "131072",
     "Bytes per pipeline segment of the chain reduce"},
    {"COLL_CHECK", UCMPI_CFG_LONG, "0",
     "Debugging: every collective on an intracommunicator first checks that "
     "its ranks agree on the call, root, op and per-peer type signatures "
     "(an extra exchange per call; lib/coll/check/coll_check.h); on a mismatch "
     "every rank's call fails.  Not checked: intercommunicator and neighbor "
     "collectives (1: on; read at the first collective)"},
    {"COLL_SHM", UCMPI_CFG_LONG, "1",
     "Small blocking collectives on a communicator whose ranks share a node "
     "go through a shared segment (algorithm \"shm\"; 0: never)"},
    {"COLL_SHM_SLOT_BYTES", UCMPI_CFG_LONG, "65536",
     "Bytes of each of a rank's 16 buffers in a communicator's collective "
     "segment (less on big communicators: 2 MiB of buffers at most): the "
     "largest contribution the shm algorithm takes"},
    {"COLL_SHM_SPLIT_BYTES", UCMPI_CFG_LONG, "-1",
     "The shm allreduce and reduce split the reduction among the ranks "
     "(each reduces 1/n, then results are shared) from this many bytes "
     "(-1: the measured defaults in lib/coll/shm/shm_reduce.c)"},
    {"COLL_SHM_MAX_BYTES", UCMPI_CFG_STR, "",
     "Automatic selection takes the shm algorithm up to this many bytes per "
     "rank (empty: the measured defaults in lib/coll/shm/shm_seg.c)"},
    {"COLL_FAKE_NODES", UCMPI_CFG_STR, "",
     "Testing: the collectives' node layout (hierarchical algorithms, the "
     "shm path) puts world rank w on node w / K (\"K\") or w % K (\"cK\": "
     "a node's ranks not contiguous) instead of the nodes PMIx reports; "
     "data still moves as the real layout allows (empty: off)"},
    {"COLL_SHM_FAIL_RANK", UCMPI_CFG_LONG, "-1",
     "Testing: this world rank fails to allocate its collective-segment "
     "state, so every communicator falls back to p2p on all ranks (-1: no)"},
    /* one-sided (lib/rma) */
    {"RMA_DIRECT", UCMPI_CFG_LONG, "1",
     "RMA between ranks of one node by load/store on window memory mapped "
     "from a shared segment (0: through UCX and the target's handler)"},
    {"RMA_ACC_LOCK_DEAD", UCMPI_CFG_LONG, "-1",
     "Testing: this world rank's first accumulate leaves the target's "
     "accumulate lock held by a process that has exited (-1: no)"},
    {"RMA_LOCK_DEAD", UCMPI_CFG_LONG, "-1",
     "Testing: this world rank's first passive-target lock stays held by "
     "a process that has exited (-1: no)"},
    {NULL, 0, NULL, NULL}
};

#define N_ENTRIES (sizeof(ucmpi_config_table) / sizeof(ucmpi_config_table[0]))

/* Values written through MPI_T_cvar_write; they win over the environment. */
static char override_value[N_ENTRIES][UCMPI_CFG_VALUE_MAX];
static char override_set[N_ENTRIES];

int ucmpi_config_count(void)
{
    return (int)N_ENTRIES - 1;
}

const ucmpi_config_entry_t *ucmpi_config_find(const char *name)
{
    for (const ucmpi_config_entry_t *e = ucmpi_config_table; e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

int ucmpi_config_set(const ucmpi_config_entry_t *e, const char *value)
{
    size_t i = (size_t)(e - ucmpi_config_table);

    if (strlen(value) >= UCMPI_CFG_VALUE_MAX)
        return -1;
    strcpy(override_value[i], value);
    __atomic_store_n(&override_set[i], 1, __ATOMIC_RELEASE);
    return 0;
}

const char *ucmpi_config_str(const char *name)
{
    const ucmpi_config_entry_t *e = ucmpi_config_find(name);
    char var[128];

    if (e == NULL) {
        fprintf(stderr, "ucmpi: internal error: unknown tunable %s\n", name);
        abort();
    }
    if (__atomic_load_n(&override_set[e - ucmpi_config_table],
                        __ATOMIC_ACQUIRE))
        return override_value[e - ucmpi_config_table];
    snprintf(var, sizeof(var), "UCMPI_%s", name);
    const char *v = getenv(var);
    return v ? v : e->def;
}

long ucmpi_config_long(const char *name)
{
    return strtol(ucmpi_config_str(name), NULL, 0);
}
