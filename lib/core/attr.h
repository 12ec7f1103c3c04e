/* Attributes cached on communicators, types and windows (lib/core/attr.c). */
#ifndef UCMPI_CORE_ATTR_H
#define UCMPI_CORE_ATTR_H

#include "core/base.h"

enum { UCMPI_ATTR_COMM, UCMPI_ATTR_TYPE, UCMPI_ATTR_WIN };
/* Run copy callbacks of *old_attrs into *new_attrs (dup). */
int ucmpi_attr_copy_all(int kind, void *old_handle, void *new_handle,
                        void **old_attrs, void **new_attrs);
/* Run delete callbacks and release the list (object free / finalize). */
int ucmpi_attr_delete_all(int kind, void *handle, void **attrs);
/* What lib/rma tells attr.c about windows: where a window's attribute list is
 * (NULL if invalid) and its predefined attributes (*(void **)val = address) */
typedef struct {
    void **(*attrs)(MPI_Win win);
    int (*predefined)(MPI_Win win, int keyval, void *val, int *flag);
} ucmpi_attr_win_ops_t;
void ucmpi_attr_win_ops(const ucmpi_attr_win_ops_t *ops);
/* The Fortran bindings' set (flag NULL) and get of an integer value
 * (MPI-4.1 19.3.7); kind is UCMPI_ATTR_*. */
int ucmpi_attr_fortran(const char *name, int kind, void *handle, int keyval,
                       MPI_Aint *val, int *flag);

#endif
