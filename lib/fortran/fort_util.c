/*
 * Fortran binding support: the sentinel common blocks, string helpers,
 * the load-time registration of predefined handles, and the shims that
 * gen_fortran.py cannot derive from a C prototype (Init without argv,
 * functions with a result, attribute values, detach addresses).
 */
#include "fortran/fort.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "a Fortran status is a C status");
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "INTEGER is a C int");

/* Common blocks: Fortran only compares their addresses.  Aligned like a
 * status so that MPI_STATUS_IGNORE's block can never be a real status. */
#define SENTINEL __attribute__((aligned(16), visibility("default")))
SENTINEL MPI_Fint mpi_fortran_bottom_;
SENTINEL MPI_Fint mpi_fortran_in_place_;
SENTINEL MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
SENTINEL MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
SENTINEL MPI_Fint mpi_fortran_errcodes_ignore_[1];
SENTINEL MPI_Fint mpi_fortran_unweighted_[1];
SENTINEL MPI_Fint mpi_fortran_weights_empty_[1];
SENTINEL char mpi_fortran_argv_null_[1];
SENTINEL char mpi_fortran_argvs_null_[1];

/* mpif.h numbers predefined handles 1, 2, ... per kind; the C library
 * numbers handles in the order c2f first sees them, so see them first. */
__attribute__((constructor)) static void register_predefined(void)
{
    for (const ucmpi_f_predef_t *p = ucmpi_f_predef; p->kind != NULL; p++)
        for (int i = 0; i < p->n; i++)
            if (p->c2f(p->objs[i]) != i + 1)
                fprintf(stderr, "ucmpi: Fortran handle of predefined %s %d "
                        "is %d, not %d: C code converted handles before the "
                        "Fortran library was loaded\n", p->kind, i + 1,
                        (int)p->c2f(p->objs[i]), i + 1);
}

char *ucmpi_f_str_in(const char *s, size_t len, int strip_leading)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    while (strip_leading && len > 0 && s[0] == ' ') {
        s++;
        len--;
    }
    char *c = malloc(len + 1);
    if (c != NULL) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

/* Room for what C may write (its MPI_MAX_* bounds) whatever Fortran's
 * length, so C never writes past the temporary. */
char *ucmpi_f_str_tmp(size_t len)
{
    size_t n = len > MPI_MAX_LIBRARY_VERSION_STRING ? len
                                                    : MPI_MAX_LIBRARY_VERSION_STRING;
    return calloc(n + 1, 1);
}

void ucmpi_f_str_out(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n > len)
        n = len;
    memcpy(dst, src, n);
    memset(dst + n, ' ', len - n);
}

/* ---- hand-written shims ---- */
#pragma weak mpi_init_ = pmpi_init_
#pragma weak mpi_init_f08_ = pmpi_init_
#pragma weak pmpi_init_f08_ = pmpi_init_
void pmpi_init_(MPI_Fint *ierror);
void pmpi_init_(MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    *ierror = PMPI_Init(NULL, NULL);
}

#pragma weak mpi_init_thread_ = pmpi_init_thread_
#pragma weak mpi_init_thread_f08_ = pmpi_init_thread_
#pragma weak pmpi_init_thread_f08_ = pmpi_init_thread_
void pmpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided,
                       MPI_Fint *ierror);
void pmpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided,
                       MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    *ierror = PMPI_Init_thread(NULL, NULL, *required, provided);
}

/* MPI_Status in mpi_f08 and the INTEGER array of mpif.h are the same
 * MPI_F_STATUS_SIZE integers, so either conversion is a copy. */
static void status_copy(const MPI_Fint *from, MPI_Fint *to, MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    memcpy(to, from, MPI_F_STATUS_SIZE * sizeof(MPI_Fint));
    *ierror = MPI_SUCCESS;
}

#pragma weak mpi_status_f2f08_ = pmpi_status_f2f08_
#pragma weak mpi_status_f2f08_f08_ = pmpi_status_f2f08_
#pragma weak pmpi_status_f2f08_f08_ = pmpi_status_f2f08_
void pmpi_status_f2f08_(const MPI_Fint *f_status, MPI_Fint *f08_status, MPI_Fint *ierror);
void pmpi_status_f2f08_(const MPI_Fint *f_status, MPI_Fint *f08_status, MPI_Fint *ierror)
{
    status_copy(f_status, f08_status, ierror);
}

#pragma weak mpi_status_f082f_ = pmpi_status_f082f_
#pragma weak mpi_status_f082f_f08_ = pmpi_status_f082f_
#pragma weak pmpi_status_f082f_f08_ = pmpi_status_f082f_
void pmpi_status_f082f_(const MPI_Fint *f08_status, MPI_Fint *f_status, MPI_Fint *ierror);
void pmpi_status_f082f_(const MPI_Fint *f08_status, MPI_Fint *f_status, MPI_Fint *ierror)
{
    status_copy(f08_status, f_status, ierror);
}

#pragma weak mpi_pcontrol_ = pmpi_pcontrol_
#pragma weak mpi_pcontrol_f08_ = pmpi_pcontrol_
#pragma weak pmpi_pcontrol_f08_ = pmpi_pcontrol_
void pmpi_pcontrol_(const MPI_Fint *level, MPI_Fint *ierror);
void pmpi_pcontrol_(const MPI_Fint *level, MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    *ierror = PMPI_Pcontrol(*level);
}

#pragma weak mpi_wtime_ = pmpi_wtime_
double pmpi_wtime_(void);
double pmpi_wtime_(void)
{
    return PMPI_Wtime();
}

#pragma weak mpi_wtick_ = pmpi_wtick_
double pmpi_wtick_(void);
double pmpi_wtick_(void)
{
    return PMPI_Wtick();
}

#pragma weak mpi_aint_add_ = pmpi_aint_add_
MPI_Aint pmpi_aint_add_(const MPI_Aint *base, const MPI_Aint *disp);
MPI_Aint pmpi_aint_add_(const MPI_Aint *base, const MPI_Aint *disp)
{
    return PMPI_Aint_add(*base, *disp);
}

#pragma weak mpi_aint_diff_ = pmpi_aint_diff_
MPI_Aint pmpi_aint_diff_(const MPI_Aint *a, const MPI_Aint *b);
MPI_Aint pmpi_aint_diff_(const MPI_Aint *a, const MPI_Aint *b)
{
    return PMPI_Aint_diff(*a, *b);
}

/* Detach: Fortran's buffer_addr is a choice argument that gets nothing. */
#pragma weak mpi_buffer_detach_ = pmpi_buffer_detach_
void pmpi_buffer_detach_(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierror);
void pmpi_buffer_detach_(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    void *addr;
    *ierror = PMPI_Buffer_detach(&addr, size);
}

#pragma weak mpi_comm_detach_buffer_ = pmpi_comm_detach_buffer_
void pmpi_comm_detach_buffer_(const MPI_Fint *comm, void *buffer_addr,
                              MPI_Fint *size, MPI_Fint *ierror);
void pmpi_comm_detach_buffer_(const MPI_Fint *comm, void *buffer_addr,
                              MPI_Fint *size, MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    void *addr;
    *ierror = PMPI_Comm_detach_buffer(PMPI_Comm_f2c(*comm), &addr, size);
}

#pragma weak mpi_session_detach_buffer_ = pmpi_session_detach_buffer_
void pmpi_session_detach_buffer_(const MPI_Fint *session, void *buffer_addr,
                                 MPI_Fint *size, MPI_Fint *ierror);
void pmpi_session_detach_buffer_(const MPI_Fint *session, void *buffer_addr,
                                 MPI_Fint *size, MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    void *addr;
    *ierror = PMPI_Session_detach_buffer(PMPI_Session_f2c(*session), &addr, size);
}

/* mpi_f08's buffer_addr is a TYPE(C_PTR) that gets the address. */
#pragma weak mpi_buffer_detach_f08_ = pmpi_buffer_detach_f08_
void pmpi_buffer_detach_f08_(void **buffer_addr, MPI_Fint *size, MPI_Fint *ierror);
void pmpi_buffer_detach_f08_(void **buffer_addr, MPI_Fint *size, MPI_Fint *ierror)
{
    MPI_Fint absent;
    if (ierror == NULL)
        ierror = &absent;
    *ierror = PMPI_Buffer_detach(buffer_addr, size);
}

#pragma weak mpi_comm_detach_buffer_f08_ = pmpi_comm_detach_buffer_f08_
void pmpi_comm_detach_buffer_f08_(const MPI_Fint *comm, void **buffer_addr,
                                  MPI_Fint *size, MPI_Fint *ierror);
void pmpi_comm_detach_buffer_f08_(const MPI_Fint *comm, void **buffer_addr,
                                  MPI_Fint *size, MPI_Fint *ierror)
{
    MPI_Fint absent;
    if (ierror == NULL)
        ierror = &absent;
    *ierror = PMPI_Comm_detach_buffer(PMPI_Comm_f2c(*comm), buffer_addr, size);
}

#pragma weak mpi_session_detach_buffer_f08_ = pmpi_session_detach_buffer_f08_
void pmpi_session_detach_buffer_f08_(const MPI_Fint *session, void **buffer_addr,
                                     MPI_Fint *size, MPI_Fint *ierror);
void pmpi_session_detach_buffer_f08_(const MPI_Fint *session, void **buffer_addr,
                                     MPI_Fint *size, MPI_Fint *ierror)
{
    MPI_Fint absent;
    if (ierror == NULL)
        ierror = &absent;
    *ierror = PMPI_Session_detach_buffer(PMPI_Session_f2c(*session), buffer_addr, size);
}

/* The _c forms (mpi_f08 only): size is INTEGER(KIND=MPI_COUNT_KIND). */
#pragma weak mpi_buffer_detach_f08c_ = pmpi_buffer_detach_f08c_
void pmpi_buffer_detach_f08c_(void **buffer_addr, MPI_Count *size, MPI_Fint *ierror);
void pmpi_buffer_detach_f08c_(void **buffer_addr, MPI_Count *size, MPI_Fint *ierror)
{
    MPI_Fint absent;
    *(ierror != NULL ? ierror : &absent) = PMPI_Buffer_detach_c(buffer_addr, size);
}

#pragma weak mpi_comm_detach_buffer_f08c_ = pmpi_comm_detach_buffer_f08c_
void pmpi_comm_detach_buffer_f08c_(const MPI_Fint *comm, void **buffer_addr,
                                   MPI_Count *size, MPI_Fint *ierror);
void pmpi_comm_detach_buffer_f08c_(const MPI_Fint *comm, void **buffer_addr,
                                   MPI_Count *size, MPI_Fint *ierror)
{
    MPI_Fint absent;
    *(ierror != NULL ? ierror : &absent) =
        PMPI_Comm_detach_buffer_c(PMPI_Comm_f2c(*comm), buffer_addr, size);
}

#pragma weak mpi_session_detach_buffer_f08c_ = pmpi_session_detach_buffer_f08c_
void pmpi_session_detach_buffer_f08c_(const MPI_Fint *session, void **buffer_addr,
                                      MPI_Count *size, MPI_Fint *ierror);
void pmpi_session_detach_buffer_f08c_(const MPI_Fint *session, void **buffer_addr,
                                      MPI_Count *size, MPI_Fint *ierror)
{
    MPI_Fint absent;
    *(ierror != NULL ? ierror : &absent) =
        PMPI_Session_detach_buffer_c(PMPI_Session_f2c(*session), buffer_addr, size);
}

/* Fortran's buflen is the string's length, without C's NUL. */
#pragma weak mpi_info_get_string_ = pmpi_info_get_string_
#pragma weak mpi_info_get_string_f08_ = pmpi_info_get_string_
#pragma weak pmpi_info_get_string_f08_ = pmpi_info_get_string_
void pmpi_info_get_string_(const MPI_Fint *info, const char *key,
                           MPI_Fint *buflen, char *value, MPI_Fint *flag,
                           MPI_Fint *ierror, size_t key_len, size_t value_len);
void pmpi_info_get_string_(const MPI_Fint *info, const char *key,
                           MPI_Fint *buflen, char *value, MPI_Fint *flag,
                           MPI_Fint *ierror, size_t key_len, size_t value_len)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    char *c_key = ucmpi_f_str_in(key, key_len, 1);
    int n = *buflen > 0 ? *buflen + 1 : 0, c_flag = 0;
    char *c_value = calloc((size_t)n + 1, 1);
    if (c_key == NULL || c_value == NULL) {
        *ierror = MPI_ERR_NO_MEM;
    } else {
        *ierror = PMPI_Info_get_string(PMPI_Info_f2c(*info), c_key, &n,
                                       c_value, &c_flag);
        if (*ierror == MPI_SUCCESS && c_flag) {
            if (*buflen > 0)
                ucmpi_f_str_out(value, value_len, c_value);
            *buflen = n - 1;
        }
        *flag = c_flag != 0;
    }
    free(c_value);
    free(c_key);
}

/* Fortran has no argc/argv to describe. */
#pragma weak mpi_info_create_env_ = pmpi_info_create_env_
#pragma weak mpi_info_create_env_f08_ = pmpi_info_create_env_
#pragma weak pmpi_info_create_env_f08_ = pmpi_info_create_env_
void pmpi_info_create_env_(MPI_Fint *info, MPI_Fint *ierror);
void pmpi_info_create_env_(MPI_Fint *info, MPI_Fint *ierror)
{
    MPI_Fint ierror_absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &ierror_absent;
    MPI_Info c_info = MPI_INFO_NULL;
    *ierror = PMPI_Info_create_env(0, NULL, &c_info);
    *info = PMPI_Info_c2f(c_info);
}

int ucmpi_f_ntypes(MPI_Comm comm, int which)
{
    int n = 0, inter = 0, topo = MPI_UNDEFINED, indeg = 0, outdeg = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 0;
    if (which == UCMPI_F_NT_PEERS) {
        if (inter)
            PMPI_Comm_remote_size(comm, &n);
        else
            PMPI_Comm_size(comm, &n);
        return n;
    }
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_CART) {
        PMPI_Cartdim_get(comm, &n);
        indeg = outdeg = 2 * n;
    } else if (topo == MPI_GRAPH) {
        int rank = 0;
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, &indeg);
        outdeg = indeg;
    } else if (topo == MPI_DIST_GRAPH) {
        int weighted = 0;
        PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted);
    }
    return which == UCMPI_F_NT_OUT ? outdeg : indeg;
}
