! Generalized requests from the mpi module: query, free and cancel written
! in Fortran, each called with the program's own extra_state variable (as
! MPICH and Open MPI do: a program may count in it).
module f90_greq_fns
  use mpi
  implicit none
  integer :: queries = 0, frees = 0, cancels = 0
  logical :: cancel_saw_complete = .true.
contains
  subroutine query_fn(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: status(MPI_STATUS_SIZE), ierror
    queries = queries + 1
    status(MPI_SOURCE) = int(extra_state)
    status(MPI_TAG) = 42
    call MPI_Status_set_elements(status, MPI_BYTE, 0, ierror)
    call MPI_Status_set_cancelled(status, cancels > 0, ierror)
    ierror = MPI_SUCCESS
  end subroutine

  subroutine free_fn(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    frees = frees + 1
    extra_state = extra_state - 1
    ierror = MPI_SUCCESS
  end subroutine

  subroutine cancel_fn(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    cancels = cancels + 1
    cancel_saw_complete = complete
    extra_state = extra_state + 100
    ierror = MPI_SUCCESS
  end subroutine
end module

program f90_greq
  use mpi
  use f90_greq_fns
  implicit none
  integer :: ierr, req, errs, rank, status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: state
  logical :: flag

  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)

  state = 7
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, state, req, ierr)
  call MPI_Test(req, flag, status, ierr)
  call check(.not. flag, 'a request not yet completed tested complete')
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, status, ierr)
  call check(req == MPI_REQUEST_NULL, 'the request is not MPI_REQUEST_NULL after MPI_Wait')
  call check(queries == 1 .and. status(MPI_SOURCE) == 7 .and. status(MPI_TAG) == 42, &
             'query_fn did not fill the status')
  call check(frees == 1, 'free_fn was not called once')
  call check(state == 6, 'free_fn did not get the program''s extra_state variable')

  state = 1
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, state, req, ierr)
  call MPI_Cancel(req, ierr)
  call check(cancels == 1 .and. .not. cancel_saw_complete, &
             'cancel_fn not called with complete = .false.')
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, status, ierr)
  call MPI_Test_cancelled(status, flag, ierr)
  call check(flag, 'the cancelled request''s status does not say so')
  call check(state == 100, 'cancel_fn and free_fn did not both update extra_state')

  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. errs == 0) print '(a)', ' No Errors'
  call MPI_Finalize(ierr)

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      errs = errs + 1
      print '(a, a)', 'f90_greq: failed: ', what
    end if
  end subroutine
end program
