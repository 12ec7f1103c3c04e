/* Large-count (_c) forms of the RMA operations: the same general paths as the
 * int forms, with MPI_Count counts (MPI 4.1, section 12.3). */
#include "rma/rma.h"

#pragma weak MPI_Put_c = PMPI_Put_c
int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count,
               MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    return ucmpi_rma_xfer_call(0, origin_addr, origin_count, origin_datatype,
                               target_rank, target_disp, target_count,
                               target_datatype, win, NULL, "MPI_Put_c");
}

#pragma weak MPI_Get_c = PMPI_Get_c
int PMPI_Get_c(void *origin_addr, MPI_Count origin_count,
               MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    return ucmpi_rma_xfer_call(UCMPI_RMA_GET, origin_addr, origin_count,
                               origin_datatype, target_rank, target_disp,
                               target_count, target_datatype, win, NULL,
                               "MPI_Get_c");
}

#pragma weak MPI_Rput_c = PMPI_Rput_c
int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    return ucmpi_rma_xfer_call(UCMPI_RMA_RFORM, origin_addr, origin_count,
                               origin_datatype, target_rank, target_disp,
                               target_count, target_datatype, win, request,
                               "MPI_Rput_c");
}

#pragma weak MPI_Rget_c = PMPI_Rget_c
int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    return ucmpi_rma_xfer_call(UCMPI_RMA_GET | UCMPI_RMA_RFORM, origin_addr,
                               origin_count, origin_datatype, target_rank,
                               target_disp, target_count, target_datatype, win,
                               request, "MPI_Rget_c");
}

#pragma weak MPI_Accumulate_c = PMPI_Accumulate_c
int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
                      MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return ucmpi_rma_acc_call(win, UCMPI_RMA_AM_ACC, origin_addr, origin_count,
                              origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                              target_rank, target_disp, target_count,
                              target_datatype, op, NULL, "MPI_Accumulate_c");
}

#pragma weak MPI_Raccumulate_c = PMPI_Raccumulate_c
int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count,
                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request *request)
{
    return ucmpi_rma_acc_call(win, UCMPI_RMA_AM_ACC | UCMPI_RMA_RFORM,
                              origin_addr, origin_count, origin_datatype, NULL,
                              0, MPI_DATATYPE_NULL, target_rank, target_disp,
                              target_count, target_datatype, op, request,
                              "MPI_Raccumulate_c");
}

#pragma weak MPI_Get_accumulate_c = PMPI_Get_accumulate_c
int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void *result_addr,
                          MPI_Count result_count,
                          MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win)
{
    return ucmpi_rma_acc_call(win, UCMPI_RMA_AM_GACC, origin_addr,
                              origin_count, origin_datatype, result_addr,
                              result_count, result_datatype, target_rank,
                              target_disp, target_count, target_datatype, op,
                              NULL, "MPI_Get_accumulate_c");
}

#pragma weak MPI_Rget_accumulate_c = PMPI_Rget_accumulate_c
int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr,
                           MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request)
{
    return ucmpi_rma_acc_call(win, UCMPI_RMA_AM_GACC | UCMPI_RMA_RFORM,
                              origin_addr, origin_count, origin_datatype,
                              result_addr, result_count, result_datatype,
                              target_rank, target_disp, target_count,
                              target_datatype, op, request,
                              "MPI_Rget_accumulate_c");
}
