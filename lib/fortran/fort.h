/*
 * Helpers shared by the generated Fortran shims (mpif_shims.c) and the
 * hand-written ones (fort_util.c).  Built on the public C API only.
 * Fortran conventions are gfortran's: name_ symbols, arguments by
 * reference, CHARACTER lengths as trailing size_t, .TRUE. == 1.
 */
#ifndef UCMPI_FORT_H
#define UCMPI_FORT_H

#include <mpi.h>
#include <stddef.h>

#define UCMPI_F_EXPORT __attribute__((visibility("default")))

/* Sentinels: Fortran common blocks whose addresses stand for MPI_BOTTOM,
 * MPI_IN_PLACE, ... (mpif.h declares COMMON /MPI_FORTRAN_BOTTOM/ ...). */
extern MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_;
extern MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint mpi_fortran_errcodes_ignore_[1];
extern MPI_Fint mpi_fortran_unweighted_[1], mpi_fortran_weights_empty_[1];
extern char mpi_fortran_argv_null_[1];
extern char mpi_fortran_argvs_null_[1];

static inline void *ucmpi_f_buf(const void *p)
{
    if (p == &mpi_fortran_bottom_)
        return MPI_BOTTOM;
    if (p == &mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    return (void *)p;
}

/* A Fortran status is the C status's bytes (asserted in fort_util.c). */
static inline void *ucmpi_f_status(const MPI_Fint *s)
{
    return s == mpi_fortran_status_ignore_ ? MPI_STATUS_IGNORE : (void *)s;
}

static inline void *ucmpi_f_statuses(const MPI_Fint *s)
{
    return s == mpi_fortran_statuses_ignore_ ? MPI_STATUSES_IGNORE : (void *)s;
}

static inline const int *ucmpi_f_weights(const MPI_Fint *w)
{
    if (w == mpi_fortran_unweighted_)
        return MPI_UNWEIGHTED;
    if (w == mpi_fortran_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return w;
}

/* Strings: an input copy without trailing blanks, a NUL-filled output
 * buffer, and the copy back blank-padded to the Fortran length. */
char *ucmpi_f_str_in(const char *s, size_t len, int strip_leading);
char *ucmpi_f_str_tmp(size_t len);
void ucmpi_f_str_out(char *dst, size_t len, const char *src);

/* How many datatypes an Alltoallw (peers) or Neighbor_alltoallw
 * (out/in neighbors) on comm takes; 0 for an invalid comm. */
enum { UCMPI_F_NT_PEERS, UCMPI_F_NT_OUT, UCMPI_F_NT_IN };
int ucmpi_f_ntypes(MPI_Comm comm, int which);

/* Predefined handles registered at load time in mpif.h's order. */
typedef MPI_Fint (*ucmpi_f_c2f_t)(void *);
typedef struct {
    const char *kind;
    ucmpi_f_c2f_t c2f;
    void *const *objs;
    int n;
} ucmpi_f_predef_t;
extern const ucmpi_f_predef_t ucmpi_f_predef[];

/* Fortran user ops: C calls them with no user data, so each live op
 * takes a trampoline of a pool (mpif_tramp.c, generated) that knows its
 * slot.  Error handlers need none: fort_callback.c finds them by object. */
#define UCMPI_F_POOL 64
enum { UCMPI_F_ERRH_COMM, UCMPI_F_ERRH_WIN, UCMPI_F_ERRH_FILE,
       UCMPI_F_ERRH_SESSION };
extern MPI_User_function *const ucmpi_f_op_tramp[UCMPI_F_POOL];
extern MPI_User_function_c *const ucmpi_f_op_c_tramp[UCMPI_F_POOL];
void ucmpi_f_op_call(int slot, void *in, void *inout, int *len, MPI_Datatype *dt);
void ucmpi_f_op_call_c(int slot, void *in, void *inout, MPI_Count *len,
                       MPI_Datatype *dt);

#endif
