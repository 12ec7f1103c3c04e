! The large-count (_c) forms of mpi_f08 that the generic interfaces cannot
! hold: MPI_Type_get_extent_c, MPI_Type_get_true_extent_c,
! MPI_Type_create_resized_c and MPI_File_get_type_extent_c (their kinds
! equal the plain forms' here) and MPI_Op_create_c (a callback with an
! MPI_COUNT_KIND len), called by name; the buffer detach calls with an
! MPI_COUNT_KIND size through the generic.
module f08_large_fns
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer(kind=MPI_COUNT_KIND) :: seen_len = -1
contains
  subroutine isum_c(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer(kind=MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    seen_len = len
    if (datatype /= MPI_INTEGER) return
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = a + b
  end subroutine
end module

program f08_large
  use mpi_f08
  use f08_large_fns
  use, intrinsic :: iso_c_binding, only: c_ptr, c_associated, c_loc
  implicit none
  integer :: rank, nproc, errs, x(2), y(2)
  integer(kind=MPI_COUNT_KIND) :: lb, ext, sz
  type(MPI_Datatype) :: t
  type(MPI_Op) :: op
  type(MPI_File) :: fh
  type(MPI_Session) :: session
  type(c_ptr) :: addr
  character, allocatable, target :: buf(:)

  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)

  call MPI_Type_get_extent_c(MPI_INTEGER, lb, ext)
  call check(lb == 0 .and. ext == 4, 'MPI_Type_get_extent_c')
  call MPI_Type_create_resized_c(MPI_INTEGER, -4_MPI_COUNT_KIND, 16_MPI_COUNT_KIND, t)
  call MPI_Type_commit(t)
  call MPI_Type_get_extent_c(t, lb, ext)
  call check(lb == -4 .and. ext == 16, 'MPI_Type_create_resized_c')
  call MPI_Type_get_true_extent_c(t, lb, ext)
  call check(lb == 0 .and. ext == 4, 'MPI_Type_get_true_extent_c')
  call MPI_Type_free(t)

  call MPI_File_open(MPI_COMM_SELF, 'f08_large.tmp', &
                     MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, fh)
  call MPI_File_get_type_extent_c(fh, MPI_DOUBLE_PRECISION, ext)
  call check(ext == 8, 'MPI_File_get_type_extent_c')
  call MPI_File_close(fh)

  call MPI_Op_create_c(isum_c, .true., op)
  x = [rank, 1]
  call MPI_Allreduce(x, y, 2, MPI_INTEGER, op, MPI_COMM_WORLD)
  call check(y(1) == nproc * (nproc - 1) / 2 .and. y(2) == nproc, 'MPI_Op_create_c reduces')
  if (nproc > 1) call check(seen_len == 2, 'MPI_Op_create_c len')
  call MPI_Op_free(op)

  allocate(buf(MPI_BSEND_OVERHEAD + 100))
  call MPI_Buffer_attach(buf, size(buf))
  call MPI_Buffer_detach(addr, sz)
  call check(sz == size(buf) .and. c_associated(addr, c_loc(buf)), 'MPI_Buffer_detach_c')
  call MPI_Comm_attach_buffer(MPI_COMM_WORLD, buf, size(buf))
  call MPI_Comm_detach_buffer(MPI_COMM_WORLD, addr, sz)
  call check(sz == size(buf), 'MPI_Comm_detach_buffer_c')
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session)
  call MPI_Session_attach_buffer(session, buf, size(buf))
  call MPI_Session_detach_buffer(session, addr, sz)
  call check(sz == size(buf), 'MPI_Session_detach_buffer_c')
  call MPI_Session_finalize(session)

  if (rank == 0 .and. errs == 0) print '(a)', ' No Errors'
  deallocate(buf)
  call MPI_Finalize()

contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      errs = errs + 1
      print '(a,i0,2a)', 'rank ', rank, ': FAILED ', what
    end if
  end subroutine
end program
