/* MPI_T events and event sources (MPI-4.1 §15.3.8).  The library raises no
 * events yet: there are no event types or sources, so every index names
 * nothing, no registration can be allocated and no event instance exists. */
#include "mpit/mpit.h"

/* The result of a call on the empty set: `err` once MPI_T is initialised. */
static int empty(int err)
{
    int rc = ucmpi_mpit_enter();

    return rc ? rc : ucmpi_mpit_leave(err);
}

/* Returns 0 in *num (checked) once MPI_T is initialised. */
static int count_zero(int *num)
{
    int rc = ucmpi_mpit_enter();

    if (rc)
        return rc;
    if (num == NULL)
        return ucmpi_mpit_leave(MPI_T_ERR_INVALID);
    *num = 0;
    return ucmpi_mpit_leave(MPI_SUCCESS);
}

#pragma weak MPI_T_source_get_num = PMPI_T_source_get_num
int PMPI_T_source_get_num(int *num_sources)
{
    return count_zero(num_sources);
}

#pragma weak MPI_T_source_get_info = PMPI_T_source_get_info
int PMPI_T_source_get_info(int source_index, char *name, int *name_len,
                           char *desc, int *desc_len,
                           MPI_T_source_order *ordering,
                           MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    (void)source_index, (void)name, (void)name_len, (void)desc;
    (void)desc_len, (void)ordering, (void)ticks_per_second, (void)max_ticks;
    (void)info;
    return empty(MPI_T_ERR_INVALID_INDEX);
}

#pragma weak MPI_T_source_get_timestamp = PMPI_T_source_get_timestamp
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    (void)source_index, (void)timestamp;
    return empty(MPI_T_ERR_INVALID_INDEX);
}

#pragma weak MPI_T_event_get_num = PMPI_T_event_get_num
int PMPI_T_event_get_num(int *num_events)
{
    return count_zero(num_events);
}

#pragma weak MPI_T_event_get_info = PMPI_T_event_get_info
int PMPI_T_event_get_info(int event_index, char *name, int *name_len,
                          int *verbosity, MPI_Datatype array_of_datatypes[],
                          MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype,
                          MPI_Info *info, char *desc, int *desc_len,
                          int *bind)
{
    (void)event_index, (void)name, (void)name_len, (void)verbosity;
    (void)array_of_datatypes, (void)array_of_displacements;
    (void)num_elements, (void)enumtype, (void)info, (void)desc;
    (void)desc_len, (void)bind;
    return empty(MPI_T_ERR_INVALID_INDEX);
}

#pragma weak MPI_T_event_get_index = PMPI_T_event_get_index
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    if (name == NULL || event_index == NULL)
        return empty(MPI_T_ERR_INVALID);
    return empty(MPI_T_ERR_INVALID_NAME);
}

#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle,
                              MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    (void)event_index, (void)obj_handle, (void)info, (void)event_registration;
    return empty(MPI_T_ERR_INVALID_INDEX);
}

#pragma weak MPI_T_event_handle_set_info = PMPI_T_event_handle_set_info
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration,
                                 MPI_Info info)
{
    (void)event_registration, (void)info;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_handle_get_info = PMPI_T_event_handle_get_info
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                 MPI_Info *info_used)
{
    (void)event_registration, (void)info_used;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_register_callback = PMPI_T_event_register_callback
int PMPI_T_event_register_callback(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info info, void *user_data, MPI_T_event_cb_function *event_cb_function)
{
    (void)event_registration, (void)cb_safety, (void)info, (void)user_data;
    (void)event_cb_function;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_callback_set_info = PMPI_T_event_callback_set_info
int PMPI_T_event_callback_set_info(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info info)
{
    (void)event_registration, (void)cb_safety, (void)info;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_callback_get_info = PMPI_T_event_callback_get_info
int PMPI_T_event_callback_get_info(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info *info_used)
{
    (void)event_registration, (void)cb_safety, (void)info_used;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_handle_free = PMPI_T_event_handle_free
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration,
                             void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    (void)event_registration, (void)user_data, (void)free_cb_function;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_set_dropped_handler = \
    PMPI_T_event_set_dropped_handler
int PMPI_T_event_set_dropped_handler(
    MPI_T_event_registration event_registration,
    MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    (void)event_registration, (void)dropped_cb_function;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

/* Event instances exist only inside callbacks, and none is ever called. */
#pragma weak MPI_T_event_read = PMPI_T_event_read
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index,
                      void *buffer)
{
    (void)event_instance, (void)element_index, (void)buffer;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_copy = PMPI_T_event_copy
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    (void)event_instance, (void)buffer;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_get_timestamp = PMPI_T_event_get_timestamp
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance,
                               MPI_Count *event_timestamp)
{
    (void)event_instance, (void)event_timestamp;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}

#pragma weak MPI_T_event_get_source = PMPI_T_event_get_source
int PMPI_T_event_get_source(MPI_T_event_instance event_instance,
                            int *source_index)
{
    (void)event_instance, (void)source_index;
    return empty(MPI_T_ERR_INVALID_HANDLE);
}
