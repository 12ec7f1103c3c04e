/*
 * Tries to join a PMIx job with whatever PMIX_* environment it is given:
 * exit 0 and "connected" when the server accepted it, 1 when refused.  The
 * security test runs it as another user against mpiexec's server, which
 * must refuse it.
 */
#include <pmix.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);

    if (rc != PMIX_SUCCESS) {
        printf("pmix_probe: uid %d refused: %s\n", (int)getuid(), PMIx_Error_string(rc));
        return 1;
    }
    printf("pmix_probe: uid %d connected as %s.%u\n", (int)getuid(), me.nspace, me.rank);
    PMIx_Finalize(NULL, 0);
    return 0;
}
