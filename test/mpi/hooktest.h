/* For tests of the progress engine's hooks: how many are registered
 * (through the engine's internal symbol, weak so that the tests still
 * check their results elsewhere), and progress until they leave. */
#ifndef UCMPI_HOOKTEST_H
#define UCMPI_HOOKTEST_H

#include "mpitest.h"

extern int ucmpi_progress_num_hooks __attribute__((weak));

static inline int mt_hooks(void)
{
    return &ucmpi_progress_num_hooks != NULL ? ucmpi_progress_num_hooks : 0;
}

/* Progress until the hook count falls to `base` (a bounded number of
 * calls: a hook leaves on its first idle run); returns the count. */
static inline int mt_hooks_settle(int base)
{
    int flag;

    for (int i = 0; i < 1000 && mt_hooks() > base; i++)
        MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_SELF, &flag,
                   MPI_STATUS_IGNORE);
    return mt_hooks();
}

#endif
