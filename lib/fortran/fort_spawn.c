/* MPI_Comm_spawn(_multiple) from Fortran: argv lists are blank-padded
 * CHARACTER arrays ending at the first all-blank entry.  mpif.h and the mpi
 * module drop an argument's leading blanks too, mpi_f08 keeps them (as
 * MPICH does: its test suite checks both). */
#include "fortran/fort.h"

#include <stdlib.h>
#include <string.h>

static int blank(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    return len == 0;
}

static void argv_free(char **argv)
{
    for (int i = 0; argv != NULL && argv[i] != NULL; i++)
        free(argv[i]);
    free(argv);
}

/* The NULL-ended C argv of entries first, first + step, ... (each len
 * characters) up to the first blank one, without trailing blanks. */
static int argv_in(const char *first, size_t step, size_t len, int lead, char ***out)
{
    int n = 0;
    while (!blank(first + (size_t)n * step, len))
        n++;
    char **argv = calloc((size_t)n + 1, sizeof(*argv));
    if (argv == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        if ((argv[i] = ucmpi_f_str_in(first + (size_t)i * step, len, lead)) == NULL) {
            argv_free(argv);
            return MPI_ERR_NO_MEM;
        }
    *out = argv;
    return MPI_SUCCESS;
}

static int *errcodes_in(MPI_Fint *codes)
{
    return codes == mpi_fortran_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : (int *)codes;
}

static void spawn(const char *command, const char *argv, const MPI_Fint *maxprocs,
                  const MPI_Fint *info, const MPI_Fint *root, const MPI_Fint *comm,
                  MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror,
                  size_t command_len, size_t argv_len, int lead)
{
    MPI_Fint absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &absent;
    char *cmd = ucmpi_f_str_in(command, command_len, 1);
    char **c_argv = MPI_ARGV_NULL;
    *ierror = cmd == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    if (*ierror == MPI_SUCCESS && argv != mpi_fortran_argv_null_)
        *ierror = argv_in(argv, argv_len, argv_len, lead, &c_argv);
    if (*ierror == MPI_SUCCESS) {
        MPI_Comm c_inter = MPI_COMM_NULL;
        *ierror = PMPI_Comm_spawn(cmd, c_argv, *maxprocs, PMPI_Info_f2c(*info), *root,
                                  PMPI_Comm_f2c(*comm), &c_inter, errcodes_in(errcodes));
        *intercomm = PMPI_Comm_c2f(c_inter);
    }
    argv_free(c_argv);
    free(cmd);
}

#pragma weak mpi_comm_spawn_ = pmpi_comm_spawn_
void pmpi_comm_spawn_(const char *command, const char *argv, const MPI_Fint *maxprocs,
                      const MPI_Fint *info, const MPI_Fint *root, const MPI_Fint *comm,
                      MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror,
                      size_t command_len, size_t argv_len);
void pmpi_comm_spawn_(const char *command, const char *argv, const MPI_Fint *maxprocs,
                      const MPI_Fint *info, const MPI_Fint *root, const MPI_Fint *comm,
                      MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror,
                      size_t command_len, size_t argv_len)
{
    spawn(command, argv, maxprocs, info, root, comm, intercomm, errcodes, ierror,
          command_len, argv_len, 1);
}

#pragma weak mpi_comm_spawn_f08_ = pmpi_comm_spawn_f08_
void pmpi_comm_spawn_f08_(const char *command, const char *argv, const MPI_Fint *maxprocs,
                          const MPI_Fint *info, const MPI_Fint *root, const MPI_Fint *comm,
                          MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror,
                          size_t command_len, size_t argv_len);
void pmpi_comm_spawn_f08_(const char *command, const char *argv, const MPI_Fint *maxprocs,
                          const MPI_Fint *info, const MPI_Fint *root, const MPI_Fint *comm,
                          MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror,
                          size_t command_len, size_t argv_len)
{
    spawn(command, argv, maxprocs, info, root, comm, intercomm, errcodes, ierror,
          command_len, argv_len, 0);
}

static void commands_free(char **cmds, char ***argvs, int count)
{
    for (int i = 0; i < count; i++) {
        free(cmds != NULL ? cmds[i] : NULL);
        argv_free(argvs != NULL ? argvs[i] : NULL);
    }
    free(cmds);
    free(argvs);
}

/* array_of_argv(count, *): command i's arguments are (i, 1), (i, 2), ... */
static int commands_in(int count, const char *commands, size_t commands_len,
                       const char *argvs, size_t argv_len, int lead, char ***cmds_out,
                       char ****argvs_out)
{
    char **cmds = calloc((size_t)count, sizeof(*cmds));
    char ***c_argvs = argvs == mpi_fortran_argvs_null_ ? NULL
                                                       : calloc((size_t)count, sizeof(*c_argvs));
    int rc = cmds == NULL || (c_argvs == NULL && argvs != mpi_fortran_argvs_null_)
                 ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        cmds[i] = ucmpi_f_str_in(commands + (size_t)i * commands_len, commands_len, 1);
        if (cmds[i] == NULL)
            rc = MPI_ERR_NO_MEM;
        else if (c_argvs != NULL)
            rc = argv_in(argvs + (size_t)i * argv_len, (size_t)count * argv_len, argv_len,
                         lead, &c_argvs[i]);
    }
    if (rc != MPI_SUCCESS) {
        commands_free(cmds, c_argvs, count);
        return rc;
    }
    *cmds_out = cmds;
    *argvs_out = c_argvs;
    return MPI_SUCCESS;
}

static void spawn_multiple(const MPI_Fint *count, const char *commands, const char *argvs,
                           const MPI_Fint *maxprocs, const MPI_Fint *infos,
                           const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *intercomm,
                           MPI_Fint *errcodes, MPI_Fint *ierror, size_t commands_len,
                           size_t argv_len, int lead)
{
    MPI_Fint absent;
    if (ierror == NULL)   /* mpi_f08: ierror is optional */
        ierror = &absent;
    int n = *count > 0 ? *count : 0;
    char **cmds = NULL, ***c_argvs = NULL;
    MPI_Info *c_infos = calloc((size_t)n + 1, sizeof(*c_infos));
    *ierror = c_infos == NULL ? MPI_ERR_NO_MEM
                              : commands_in(n, commands, commands_len, argvs, argv_len,
                                            lead, &cmds, &c_argvs);
    if (*ierror == MPI_SUCCESS) {
        MPI_Comm c_inter = MPI_COMM_NULL;
        for (int i = 0; i < n; i++)
            c_infos[i] = PMPI_Info_f2c(infos[i]);
        /* a count the C call refuses: it reports it, with NULL arrays */
        *ierror = PMPI_Comm_spawn_multiple(*count, n ? cmds : NULL,
                                           c_argvs != NULL ? c_argvs : MPI_ARGVS_NULL,
                                           (int *)maxprocs, c_infos, *root,
                                           PMPI_Comm_f2c(*comm), &c_inter,
                                           errcodes_in(errcodes));
        *intercomm = PMPI_Comm_c2f(c_inter);
        commands_free(cmds, c_argvs, n);
    }
    free(c_infos);
}

#pragma weak mpi_comm_spawn_multiple_ = pmpi_comm_spawn_multiple_
void pmpi_comm_spawn_multiple_(const MPI_Fint *count, const char *commands, const char *argvs,
                               const MPI_Fint *maxprocs, const MPI_Fint *infos,
                               const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *intercomm,
                               MPI_Fint *errcodes, MPI_Fint *ierror, size_t commands_len,
                               size_t argv_len);
void pmpi_comm_spawn_multiple_(const MPI_Fint *count, const char *commands, const char *argvs,
                               const MPI_Fint *maxprocs, const MPI_Fint *infos,
                               const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *intercomm,
                               MPI_Fint *errcodes, MPI_Fint *ierror, size_t commands_len,
                               size_t argv_len)
{
    spawn_multiple(count, commands, argvs, maxprocs, infos, root, comm, intercomm, errcodes,
                   ierror, commands_len, argv_len, 1);
}

#pragma weak mpi_comm_spawn_multiple_f08_ = pmpi_comm_spawn_multiple_f08_
void pmpi_comm_spawn_multiple_f08_(const MPI_Fint *count, const char *commands,
                                   const char *argvs, const MPI_Fint *maxprocs,
                                   const MPI_Fint *infos, const MPI_Fint *root,
                                   const MPI_Fint *comm, MPI_Fint *intercomm,
                                   MPI_Fint *errcodes, MPI_Fint *ierror,
                                   size_t commands_len, size_t argv_len);
void pmpi_comm_spawn_multiple_f08_(const MPI_Fint *count, const char *commands,
                                   const char *argvs, const MPI_Fint *maxprocs,
                                   const MPI_Fint *infos, const MPI_Fint *root,
                                   const MPI_Fint *comm, MPI_Fint *intercomm,
                                   MPI_Fint *errcodes, MPI_Fint *ierror,
                                   size_t commands_len, size_t argv_len)
{
    spawn_multiple(count, commands, argvs, maxprocs, infos, root, comm, intercomm, errcodes,
                   ierror, commands_len, argv_len, 0);
}
