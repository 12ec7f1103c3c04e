! Fortran callbacks through the mpi module: a user reduction op (which
! must see the Fortran datatype handle), attribute copy and delete
! functions (user ones and the predefined MPI_COMM_DUP_FN ...), and a
! Fortran error handler called with the communicator and the error code.
module f90_callback_fns
  use mpi
  implicit none
  integer :: deletes = 0, errh_calls = 0, errh_code = 0, errh_comm = -1
  logical :: op_saw_type = .true.
contains
  subroutine absmax(invec, inoutvec, n, datatype)
    integer, intent(in) :: n, datatype
    double precision, intent(in) :: invec(n)
    double precision, intent(inout) :: inoutvec(n)
    integer :: i
    if (datatype /= MPI_DOUBLE_PRECISION) op_saw_type = .false.
    do i = 1, n
      inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
    end do
  end subroutine

  ! non-commutative: keeps the operand of the lower rank (a "first" op)
  subroutine first(invec, inoutvec, n, datatype)
    integer, intent(in) :: n, datatype
    integer, intent(in) :: invec(n)
    integer, intent(inout) :: inoutvec(n)
    inoutvec = invec
  end subroutine

  subroutine copy_plus_one(oldcomm, keyval, extra, valin, valout, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
    logical :: flag
    valout = valin + extra
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine

  subroutine count_delete(comm, keyval, val, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    deletes = deletes + 1
    ierr = MPI_SUCCESS
  end subroutine

  subroutine my_errh(comm, code)
    integer :: comm, code
    errh_calls = errh_calls + 1
    errh_code = code
    errh_comm = comm
  end subroutine
end module

program f90_callback
  use mpi
  use f90_callback_fns
  implicit none
  integer :: ierr, rank, nproc, errs, op, opnc, key, key2, dup, dup2, errh, cls, n
  double precision :: v(3), r(3)
  integer :: iv(2), ir(2)
  integer(kind=MPI_ADDRESS_KIND) :: aval
  logical :: flag

  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)

  ! user ops
  call MPI_Op_create(absmax, .true., op, ierr)
  v = (/ dble(-rank), 1d0, dble(rank) * 0.5d0 /)
  call MPI_Allreduce(v, r, 3, MPI_DOUBLE_PRECISION, op, MPI_COMM_WORLD, ierr)
  call check(all(r == (/ dble(nproc - 1), 1d0, 0.5d0 * (nproc - 1) /)), 'user op result')
  call check(op_saw_type, 'user op got MPI_DOUBLE_PRECISION')
  call MPI_Op_free(op, ierr)
  call check(op == MPI_OP_NULL, 'Op_free')
  call MPI_Op_create(first, .false., opnc, ierr)
  iv = (/ rank + 10, rank /)
  call MPI_Allreduce(iv, ir, 2, MPI_INTEGER, opnc, MPI_COMM_WORLD, ierr)
  call check(ir(1) == 10 .and. ir(2) == 0, 'non-commutative op keeps rank order')
  call MPI_Op_commutative(opnc, flag, ierr)
  call check(.not. flag, 'Op_commutative of a non-commutative op')
  call MPI_Op_free(opnc, ierr)

  ! attribute callbacks
  call MPI_Comm_create_keyval(copy_plus_one, count_delete, key, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key2, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_set_attr(dup, key, 100_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(dup, key2, 77_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(dup, dup2, ierr)
  call MPI_Comm_get_attr(dup2, key, aval, flag, ierr)
  call check(flag .and. aval == 105, 'user copy function')
  call MPI_Comm_get_attr(dup2, key2, aval, flag, ierr)
  call check(flag .and. aval == 77, 'MPI_COMM_DUP_FN')
  call MPI_Comm_free(dup2, ierr)
  call check(deletes == 1, 'delete function on free')
  call MPI_Comm_delete_attr(dup, key, ierr)
  call check(deletes == 2, 'delete function on delete_attr')
  call MPI_Comm_free_keyval(key, ierr)
  call MPI_Comm_free_keyval(key2, ierr)
  call check(key == MPI_KEYVAL_INVALID, 'free_keyval')

  ! MPI-1 keyvals
  call MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, key, 0, ierr)
  call MPI_Attr_put(dup, key, 42, ierr)
  call MPI_Comm_dup(dup, dup2, ierr)
  call MPI_Attr_get(dup2, key, n, flag, ierr)
  call check(flag .and. n == 42, 'MPI_DUP_FN')
  call MPI_Comm_free(dup2, ierr)
  call MPI_Keyval_free(key, ierr)

  ! a Fortran error handler
  call MPI_Comm_create_errhandler(my_errh, errh, ierr)
  call MPI_Comm_set_errhandler(dup, errh, ierr)
  call MPI_Errhandler_free(errh, ierr)
  call MPI_Send(v, -1, MPI_DOUBLE_PRECISION, 0, 0, dup, ierr)
  call MPI_Error_class(errh_code, cls, ierr)
  call check(errh_calls == 1 .and. cls == MPI_ERR_COUNT, 'error handler called with the code')
  call check(errh_comm == dup, 'error handler got the communicator')
  call MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER, ierr)
  call check(errh_calls == 2 .and. errh_code == MPI_ERR_OTHER, 'Comm_call_errhandler')
  call MPI_Comm_free(dup, ierr)

  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (errs /= 0) then
    if (rank == 0) print *, 'Found', errs, 'errors'
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  if (rank == 0) print *, 'No Errors'
  call MPI_Finalize(ierr)

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
