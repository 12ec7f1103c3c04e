/*
 * The rank's side of the call slots (see rt_calls.h): map, publish, unmap.
 */
#define _GNU_SOURCE
#include "rt_calls.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static ucmpi_rt_slot_t private_slot;
ucmpi_rt_slot_t *ucmpi_rt_slot = &private_slot;
const char *ucmpi_rt_call;

static void *mapping;
static size_t mapping_len;
static const char *published;     /* the name now in the slot */

void ucmpi_rt_calls_map(int rank)
{
    const char *path = getenv(UCMPI_RT_CALLS_ENV);
    long page = sysconf(_SC_PAGESIZE);
    off_t at = (off_t)rank * sizeof(ucmpi_rt_slot_t);
    off_t base = at & ~((off_t)page - 1);
    struct stat st;
    void *p;
    int fd;

    if (path == NULL || *path == '\0' || rank < 0 || mapping != NULL)
        return;
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || st.st_size < at + (off_t)sizeof(ucmpi_rt_slot_t)) {
        close(fd);
        return;
    }
    p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
    close(fd);
    if (p == MAP_FAILED)
        return;
    mapping = p;
    mapping_len = page;
    published = NULL;
    ucmpi_rt_slot = (ucmpi_rt_slot_t *)((char *)p + (at - base));
}

void ucmpi_rt_calls_unmap(void)
{
    if (mapping == NULL)
        return;
    ucmpi_rt_slot = &private_slot;
    munmap(mapping, mapping_len);
    mapping = NULL;
    published = NULL;
}

void ucmpi_rt_calls_publish(void)
{
    ucmpi_rt_slot_t *s = ucmpi_rt_slot;
    const char *fn = __atomic_load_n(&ucmpi_rt_call, __ATOMIC_RELAXED);

    if (fn != published) {
        /* a reader retries while seq is odd or changed under it */
        __atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
        strncpy(s->call, fn != NULL ? fn : "an MPI call", sizeof(s->call) - 1);
        s->call[sizeof(s->call) - 1] = '\0';
        __atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
        published = fn;
    }
    __atomic_store_n(&s->waiting, 1, __ATOMIC_RELEASE);
}
