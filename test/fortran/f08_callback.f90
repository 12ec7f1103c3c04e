! Callbacks through mpi_f08 with the standard's f08 interfaces: a user op
! taking TYPE(C_PTR), VALUE buffers, a generalized request whose query
! function fills a TYPE(MPI_Status), and an error handler on a TYPE(MPI_Comm).
module f08_callback_fns
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer :: queries = 0, frees = 0, errh_calls = 0, errh_code = 0
  type(MPI_Comm) :: errh_comm
contains
  subroutine imax2(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    if (datatype /= MPI_INTEGER) return
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(a, b)
  end subroutine

  subroutine query(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    queries = queries + 1
    call MPI_Status_set_source(status, int(extra_state))
    call MPI_Status_set_tag(status, 77)
    call MPI_Status_set_elements(status, MPI_INTEGER, 3)
    call MPI_Status_set_cancelled(status, .false.)
    ierror = MPI_SUCCESS
  end subroutine

  subroutine free_fn(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    if (extra_state >= 0) frees = frees + 1
    ierror = MPI_SUCCESS
  end subroutine

  subroutine cancel_fn(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ierror = MPI_SUCCESS   ! never cancelled here
    if (extra_state < 0 .or. complete) ierror = MPI_ERR_OTHER
  end subroutine

  subroutine errh(comm, code)
    type(MPI_Comm) :: comm
    integer :: code
    errh_calls = errh_calls + 1
    errh_code = code
    errh_comm = comm
  end subroutine
end module

program f08_callback
  use mpi_f08
  use f08_callback_fns
  implicit none
  integer :: rank, nproc, errs, v(2), r(2), cnt, cls
  type(MPI_Op) :: op
  type(MPI_Request) :: req
  type(MPI_Status) :: st
  type(MPI_Errhandler) :: eh
  type(MPI_Comm) :: dup
  logical :: flag
  integer :: fst(MPI_STATUS_SIZE)
  procedure(MPI_User_function), pointer :: opfn

  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)

  call MPI_Op_create(imax2, .true., op)
  v = [rank, -rank]
  call MPI_Allreduce(v, r, 2, MPI_INTEGER, op, MPI_COMM_WORLD)
  call check(r(1) == nproc - 1 .and. r(2) == 0, 'f08 user op')
  call MPI_Op_free(op)
  call check(op == MPI_OP_NULL, 'Op_free')

  call MPI_Grequest_start(query, free_fn, cancel_fn, int(rank + 1000, MPI_ADDRESS_KIND), req)
  call MPI_Test(req, flag, st)
  call check(.not. flag, 'generalized request pending')
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  call check(req == MPI_REQUEST_NULL, 'Wait frees the generalized request')
  call check(queries == 1 .and. frees == 1, 'query and free called once')
  call check(st%MPI_SOURCE == rank + 1000 .and. st%MPI_TAG == 77 .and. cnt == 3, &
             'status from the query function')

  ! the mpi_f08 conversions to and from the mpif.h status array
  call MPI_Status_f082f(st, fst)
  call check(fst(MPI_SOURCE) == rank + 1000 .and. fst(MPI_TAG) == 77, 'Status_f082f')
  fst(MPI_TAG) = 78
  call MPI_Status_f2f08(fst, st)
  call check(st%MPI_TAG == 78 .and. st%MPI_SOURCE == rank + 1000, 'Status_f2f08')

  ! a procedure pointer of the standard's abstract interface is accepted
  opfn => imax2
  call MPI_Op_create(opfn, .true., op)
  call MPI_Op_free(op)

  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_create_errhandler(errh, eh)
  call MPI_Comm_set_errhandler(dup, eh)
  call MPI_Errhandler_free(eh)
  call MPI_Recv(v, 1, MPI_INTEGER, nproc + 5, 0, dup, MPI_STATUS_IGNORE)
  call MPI_Error_class(errh_code, cls)
  call check(errh_calls == 1 .and. cls == MPI_ERR_RANK, 'f08 error handler, MPI_ERR_RANK')
  call check(errh_comm == dup, 'error handler got the communicator')
  call MPI_Comm_free(dup)

  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (errs /= 0) then
    if (rank == 0) print *, 'Found', errs, 'errors'
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  if (rank == 0) print *, 'No Errors'
  call MPI_Finalize()

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      errs = errs + 1
      print *, rank, ': FAILED ', what
    end if
  end subroutine
end program
