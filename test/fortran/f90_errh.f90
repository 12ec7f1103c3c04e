! Fortran error handlers and user ops beyond the old 32-slot pools: 34
! distinct comm handlers created, set, freed while attached and called;
! world's Fortran handler called for an error on an invalid window and
! on MPI_FILE_NULL; 64 live user ops, a clear error naming MPI_Op_create
! and the limit for the 65th, and reuse after MPI_Op_free; keyvals made
! and freed in a loop keep their callbacks.
module f90_errh_fns
  use mpi
  implicit none
  integer :: last = 0, last_comm = -1, last_code = 0, deletes = 0
contains
  subroutine hit(i, c, e)
    integer :: i, c, e
    last = i
    last_comm = c
    last_code = e
  end subroutine
  subroutine h01(c, e); integer :: c, e; call hit(1, c, e); end subroutine
  subroutine h02(c, e); integer :: c, e; call hit(2, c, e); end subroutine
  subroutine h03(c, e); integer :: c, e; call hit(3, c, e); end subroutine
  subroutine h04(c, e); integer :: c, e; call hit(4, c, e); end subroutine
  subroutine h05(c, e); integer :: c, e; call hit(5, c, e); end subroutine
  subroutine h06(c, e); integer :: c, e; call hit(6, c, e); end subroutine
  subroutine h07(c, e); integer :: c, e; call hit(7, c, e); end subroutine
  subroutine h08(c, e); integer :: c, e; call hit(8, c, e); end subroutine
  subroutine h09(c, e); integer :: c, e; call hit(9, c, e); end subroutine
  subroutine h10(c, e); integer :: c, e; call hit(10, c, e); end subroutine
  subroutine h11(c, e); integer :: c, e; call hit(11, c, e); end subroutine
  subroutine h12(c, e); integer :: c, e; call hit(12, c, e); end subroutine
  subroutine h13(c, e); integer :: c, e; call hit(13, c, e); end subroutine
  subroutine h14(c, e); integer :: c, e; call hit(14, c, e); end subroutine
  subroutine h15(c, e); integer :: c, e; call hit(15, c, e); end subroutine
  subroutine h16(c, e); integer :: c, e; call hit(16, c, e); end subroutine
  subroutine h17(c, e); integer :: c, e; call hit(17, c, e); end subroutine
  subroutine h18(c, e); integer :: c, e; call hit(18, c, e); end subroutine
  subroutine h19(c, e); integer :: c, e; call hit(19, c, e); end subroutine
  subroutine h20(c, e); integer :: c, e; call hit(20, c, e); end subroutine
  subroutine h21(c, e); integer :: c, e; call hit(21, c, e); end subroutine
  subroutine h22(c, e); integer :: c, e; call hit(22, c, e); end subroutine
  subroutine h23(c, e); integer :: c, e; call hit(23, c, e); end subroutine
  subroutine h24(c, e); integer :: c, e; call hit(24, c, e); end subroutine
  subroutine h25(c, e); integer :: c, e; call hit(25, c, e); end subroutine
  subroutine h26(c, e); integer :: c, e; call hit(26, c, e); end subroutine
  subroutine h27(c, e); integer :: c, e; call hit(27, c, e); end subroutine
  subroutine h28(c, e); integer :: c, e; call hit(28, c, e); end subroutine
  subroutine h29(c, e); integer :: c, e; call hit(29, c, e); end subroutine
  subroutine h30(c, e); integer :: c, e; call hit(30, c, e); end subroutine
  subroutine h31(c, e); integer :: c, e; call hit(31, c, e); end subroutine
  subroutine h32(c, e); integer :: c, e; call hit(32, c, e); end subroutine
  subroutine h33(c, e); integer :: c, e; call hit(33, c, e); end subroutine
  subroutine h34(c, e); integer :: c, e; call hit(34, c, e); end subroutine
  subroutine h35(c, e); integer :: c, e; call hit(35, c, e); end subroutine
  subroutine sum_op(invec, inoutvec, n, datatype)
    integer, intent(in) :: n, datatype
    integer, intent(in) :: invec(n)
    integer, intent(inout) :: inoutvec(n)
    inoutvec = inoutvec + invec
  end subroutine
  subroutine count_delete(comm, keyval, val, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    deletes = deletes + 1
    ierr = MPI_SUCCESS
  end subroutine
end module

program f90_errh
  use mpi
  use f90_errh_fns
  implicit none
  integer :: ierr, rank, errs, i, cls, n, x, y, key, c
  integer :: ops(65)
  integer(kind=MPI_ADDRESS_KIND) :: val
  character(len=MPI_MAX_ERROR_STRING) :: msg
  logical :: flag

  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call try(h01, 1)
  call try(h02, 2)
  call try(h03, 3)
  call try(h04, 4)
  call try(h05, 5)
  call try(h06, 6)
  call try(h07, 7)
  call try(h08, 8)
  call try(h09, 9)
  call try(h10, 10)
  call try(h11, 11)
  call try(h12, 12)
  call try(h13, 13)
  call try(h14, 14)
  call try(h15, 15)
  call try(h16, 16)
  call try(h17, 17)
  call try(h18, 18)
  call try(h19, 19)
  call try(h20, 20)
  call try(h21, 21)
  call try(h22, 22)
  call try(h23, 23)
  call try(h24, 24)
  call try(h25, 25)
  call try(h26, 26)
  call try(h27, 27)
  call try(h28, 28)
  call try(h29, 29)
  call try(h30, 30)
  call try(h31, 31)
  call try(h32, 32)
  call try(h33, 33)
  call try(h34, 34)

  ! an invalid window's error goes to world's (Fortran) handler
  call set_world()
  last = 0
  call MPI_Win_fence(0, MPI_WIN_NULL, ierr)
  call check(last == 35 .and. ierr /= MPI_SUCCESS, 'world handler for an invalid window')
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  ! a file handler on MPI_FILE_NULL
  call MPI_File_create_errhandler(h01, c, ierr)
  call MPI_File_set_errhandler(MPI_FILE_NULL, c, ierr)
  call MPI_Errhandler_free(c, ierr)
  last = 0
  call MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_FILE, ierr)
  call check(last == 1 .and. last_code == MPI_ERR_FILE, 'file handler on MPI_FILE_NULL')
  call MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN, ierr)

  ! 64 live Fortran ops work, the 65th is a clear error, a freed slot is reused
  do i = 1, 64
    call MPI_Op_create(sum_op, .true., ops(i), ierr)
    if (ierr /= MPI_SUCCESS) exit
  end do
  call check(i == 65, '64 live Fortran user ops')
  call MPI_Op_create(sum_op, .true., ops(65), ierr)
  call MPI_Error_class(ierr, cls, i)
  call MPI_Error_string(ierr, msg, n, i)
  call check(cls == MPI_ERR_INTERN .and. index(msg, 'MPI_Op_create') > 0 .and. &
             index(msg, '64') > 0, 'the 65th op: ' // trim(msg))
  x = rank + 1
  call MPI_Allreduce(x, y, 1, MPI_INTEGER, ops(64), MPI_COMM_WORLD, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call check(y == n * (n + 1) / 2, 'the 64th op reduces')
  do i = 1, 64
    call MPI_Op_free(ops(i), ierr)
  end do
  call MPI_Op_create(sum_op, .true., ops(1), ierr)
  call check(ierr == MPI_SUCCESS, 'an op after freeing')
  call MPI_Op_free(ops(1), ierr)

  ! keyvals created and freed in a loop, attributes outliving them
  do i = 1, 200
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, key, 0_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_dup(MPI_COMM_SELF, c, ierr)
    val = i
    call MPI_Comm_set_attr(c, key, val, ierr)
    call MPI_Comm_free_keyval(key, ierr)
    call MPI_Comm_free(c, ierr)
  end do
  call check(deletes == 200, 'delete callbacks of freed keyvals')

  if (rank == 0 .and. errs == 0) print '(a)', ' No Errors'
  call MPI_Finalize(ierr)

contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      errs = errs + 1
      print '(a,i0,2a)', 'rank ', rank, ': FAILED ', what
    end if
  end subroutine

  subroutine set_world()
    integer :: eh
    call MPI_Comm_create_errhandler(h35, eh, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh, ierr)
    call MPI_Errhandler_free(eh, ierr)
  end subroutine

  ! create a handler, set it on a new comm, free it while attached, call it
  subroutine try(fn, k)
    external :: fn
    integer, intent(in) :: k
    integer :: eh, comm
    call MPI_Comm_create_errhandler(fn, eh, ierr)
    if (ierr /= MPI_SUCCESS) then
      call check(.false., 'creating a comm error handler')
      return
    end if
    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call MPI_Comm_set_errhandler(comm, eh, ierr)
    call MPI_Errhandler_free(eh, ierr)
    last = 0
    call MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER, ierr)
    call check(last == k .and. last_comm == comm .and. last_code == MPI_ERR_OTHER, &
               'the comm error handler called')
    call MPI_Comm_free(comm, ierr)
  end subroutine
end program
