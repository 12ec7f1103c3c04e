/* Hooks the layers above lib/core register (from constructors, so a unit test
 * gets only what it links): lib/core calls the lists, never those layers. */
#ifndef UCMPI_HOOKS_H
#define UCMPI_HOOKS_H

typedef enum {
    /* start-up, UCX up, before the modex fence; arg: an int set to -1 on
     * failure */
    UCMPI_HOOK_INIT,
    /* MPI_Finalize before anything is torn down (attribute callbacks) */
    UCMPI_HOOK_FINALIZE_FIRST,
    /* the job's finalize barrier passed, endpoints still open */
    UCMPI_HOOK_FINALIZE_QUIESCE,
    /* after the last fence, before UCX goes */
    UCMPI_HOOK_FINALIZE_DETACH,
    /* after UCX and the runtime went */
    UCMPI_HOOK_FINALIZE_LAST,
    /* arg: the ucmpi_comm_t being destroyed */
    UCMPI_HOOK_COMM_DESTROY,
    /* arg: a ucmpi_request_t a waiting loop checks for dead peers (each
     * hook handles its own request kinds) */
    UCMPI_HOOK_PEER_CHECK,
    /* arg: an int, a world rank found failed (again and again: whoever
     * wants it once keeps track) */
    UCMPI_HOOK_PEER_FAILED,
    UCMPI_HOOK_KINDS
} ucmpi_hook_kind_t;

typedef void (*ucmpi_hook_fn_t)(void *arg);

/* Adds fn to kind's list; lists run in increasing order (equal orders in
 * registration order).  Not thread-safe: call from constructors. */
void ucmpi_hook_add(ucmpi_hook_kind_t kind, int order, ucmpi_hook_fn_t fn);
void ucmpi_hooks_run(ucmpi_hook_kind_t kind, void *arg);

/* Orders of the hooks that depend on each other within a list. */
enum {
    UCMPI_HOOK_ORDER_ATTR = 10,      /* FINALIZE_FIRST: comm attributes */
    UCMPI_HOOK_ORDER_COMM = 20,      /* FINALIZE_FIRST: comm state; DETACH */
    UCMPI_HOOK_ORDER_REQUESTS = 10,  /* QUIESCE: live persistent requests */
    UCMPI_HOOK_ORDER_RMA = 20,       /* QUIESCE: windows left open */
    UCMPI_HOOK_ORDER_P2P = 30,       /* QUIESCE: acknowledgements, cancel */
    UCMPI_HOOK_ORDER_COLL = 10       /* COMM_DESTROY: before comm's own */
};

#endif
