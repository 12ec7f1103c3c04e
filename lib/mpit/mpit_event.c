/* MPI_T events (MPI-4.1 15.3.8): none raised yet; every index names nothing. */
#include "mpit/mpit.h"

/* No sources or events: one counter for both. */
#pragma weak MPI_T_source_get_num = PMPI_T_source_get_num
#pragma weak MPI_T_event_get_num = PMPI_T_source_get_num
#pragma weak PMPI_T_event_get_num = PMPI_T_source_get_num
int PMPI_T_source_get_num(int *num_sources)
{
    return ucmpi_mpit_count(num_sources, 0);
}

UCMPI_MPIT_STUB(T_source_get_info, MPI_T_ERR_INVALID_INDEX, int source_index,
                char *name, int *name_len, char *desc, int *desc_len,
                MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                MPI_Count *max_ticks, MPI_Info *info)

UCMPI_MPIT_STUB(T_source_get_timestamp, MPI_T_ERR_INVALID_INDEX,
                int source_index, MPI_Count *timestamp)

UCMPI_MPIT_STUB(T_event_get_info, MPI_T_ERR_INVALID_INDEX, int event_index,
                char *name, int *name_len, int *verbosity,
                MPI_Datatype array_of_datatypes[],
                MPI_Aint array_of_displacements[], int *num_elements,
                MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                int *desc_len, int *bind)

#pragma weak MPI_T_event_get_index = PMPI_T_event_get_index
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    if (name == NULL || event_index == NULL)
        return ucmpi_mpit_empty(MPI_T_ERR_INVALID);
    return ucmpi_mpit_empty(MPI_T_ERR_INVALID_NAME);
}

UCMPI_MPIT_STUB(T_event_handle_alloc, MPI_T_ERR_INVALID_INDEX, int event_index,
                void *obj_handle, MPI_Info info,
                MPI_T_event_registration *event_registration)

UCMPI_MPIT_STUB(T_event_handle_set_info, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_registration event_registration, MPI_Info info)

UCMPI_MPIT_STUB(T_event_handle_get_info, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_registration event_registration,
                MPI_Info *info_used)

UCMPI_MPIT_STUB(T_event_register_callback, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_registration event_registration,
                MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                MPI_T_event_cb_function *event_cb_function)

UCMPI_MPIT_STUB(T_event_callback_set_info, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_registration event_registration,
                MPI_T_cb_safety cb_safety, MPI_Info info)

UCMPI_MPIT_STUB(T_event_callback_get_info, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_registration event_registration,
                MPI_T_cb_safety cb_safety, MPI_Info *info_used)

UCMPI_MPIT_STUB(T_event_handle_free, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_registration event_registration, void *user_data,
                MPI_T_event_free_cb_function *free_cb_function)

UCMPI_MPIT_STUB(T_event_set_dropped_handler, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_registration event_registration,
                MPI_T_event_dropped_cb_function *dropped_cb_function)

/* Event instances exist only inside callbacks, and none is ever called. */
UCMPI_MPIT_STUB(T_event_read, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_instance event_instance, int element_index,
                void *buffer)

UCMPI_MPIT_STUB(T_event_copy, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_instance event_instance, void *buffer)

UCMPI_MPIT_STUB(T_event_get_timestamp, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_instance event_instance,
                MPI_Count *event_timestamp)

UCMPI_MPIT_STUB(T_event_get_source, MPI_T_ERR_INVALID_HANDLE,
                MPI_T_event_instance event_instance, int *source_index)
