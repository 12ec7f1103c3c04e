! The mpi_f08 module: handle types and their comparisons, TYPE(MPI_Status),
! optional ierror, polymorphic buffers (scalars, arrays, non-contiguous
! sections: MPI_SUBARRAYS_SUPPORTED is .false., the compiler copies them),
! MPI_IN_PLACE and MPI_STATUS(ES)_IGNORE, strings and logicals.
program f08_basic
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_associated
  implicit none
  real(kind=8) :: bsbuf(100)
  type(c_ptr) :: addr
  integer :: rank, nproc, nxt, prv, errs, i, cnt, ierr
  type(MPI_Comm) :: dup, split
  type(MPI_Status) :: st, sts(2)
  type(MPI_Request) :: reqs(2)
  type(MPI_Datatype) :: vec
  real(kind=8) :: a(10), b(5), c10(10)
  integer(kind=MPI_COUNT_KIND) :: ccount
  integer :: m(3, 4), col(4)
  complex(kind=8) :: z
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name
  integer :: nlen

  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  call check(ierr == MPI_SUCCESS, 'ierror present')
  nxt = mod(rank + 1, nproc)
  prv = mod(rank + nproc - 1, nproc)
  call check(.not. MPI_SUBARRAYS_SUPPORTED, 'MPI_SUBARRAYS_SUPPORTED is honest')

  ! handles compare with == and /=
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call check(dup /= MPI_COMM_WORLD .and. dup /= MPI_COMM_NULL, 'dup is a new handle')
  call MPI_Comm_split(dup, mod(rank, 2), rank, split)
  call MPI_Comm_free(split)
  call check(split == MPI_COMM_NULL, 'freed comm is MPI_COMM_NULL')

  ! a non-contiguous section as a send buffer, status as a derived type
  a = [(100d0 * rank + i, i = 1, 10)]
  call MPI_Sendrecv(a(1:10:2), 5, MPI_DOUBLE_PRECISION, nxt, 3, b, 5, MPI_DOUBLE_PRECISION, &
                    prv, 3, dup, st)
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, cnt)
  call check(st%MPI_SOURCE == prv .and. st%MPI_TAG == 3 .and. cnt == 5, 'Sendrecv status')
  call check(all(b == [(100d0 * prv + i, i = 1, 10, 2)]), 'section data')

  ! a strided row of a matrix as a vector type, nonblocking
  m = reshape([(10 * rank + i, i = 1, 12)], [3, 4])
  call MPI_Type_vector(4, 1, 3, MPI_INTEGER, vec)
  call MPI_Type_commit(vec)
  call MPI_Irecv(col, 4, MPI_INTEGER, prv, 4, dup, reqs(1))
  call MPI_Isend(m(2, 1), 1, vec, nxt, 4, dup, reqs(2))
  call MPI_Waitall(2, reqs, sts)
  call check(all(reqs == MPI_REQUEST_NULL), 'Waitall nulls the requests')
  call check(sts(1)%MPI_SOURCE == prv, 'Waitall status')
  call check(all(col == [(10 * prv + 2 + 3 * i, i = 0, 3)]), 'row of a matrix')
  call MPI_Type_free(vec)
  call check(vec == MPI_DATATYPE_NULL, 'Type_free')

  ! scalars of any type, MPI_IN_PLACE, MPI_STATUS_IGNORE
  z = cmplx(rank, 1, kind=8)
  call MPI_Allreduce(MPI_IN_PLACE, z, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, dup)
  call check(abs(z - cmplx(nproc * (nproc - 1) / 2, nproc, kind=8)) < 1d-12, 'complex in place')
  call MPI_Isend(rank, 1, MPI_INTEGER, nxt, 5, dup, reqs(1))
  call MPI_Recv(cnt, 1, MPI_INTEGER, prv, 5, dup, MPI_STATUS_IGNORE)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call check(cnt == prv, 'scalar send')
  call MPI_Test(reqs(1), flag, st)
  call check(flag, 'Test of a null request')

  ! large-count forms, chosen by the kind of the count
  call MPI_Sendrecv(a, 10_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, nxt, 8, c10, 10_MPI_COUNT_KIND, &
                    MPI_DOUBLE_PRECISION, prv, 8, MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, ccount)
  call check(ccount == 10_MPI_COUNT_KIND .and. c10(10) == 100d0 * prv + 10, 'MPI_Sendrecv_c')

  ! strings and errors without ierror
  call MPI_Comm_set_name(dup, 'dup of world  ')
  call MPI_Comm_get_name(dup, name, nlen)
  call check(name == 'dup of world' .and. nlen == 12, 'names')
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  call MPI_Send(a, -3, MPI_DOUBLE_PRECISION, nxt, 0, dup, ierr)
  call MPI_Error_class(ierr, cnt)
  call check(cnt == MPI_ERR_COUNT, 'MPI_ERR_COUNT through mpi_f08')
  call MPI_Comm_free(dup)

  ! Bsend through an attached buffer; detach hands back its address
  call MPI_Buffer_attach(bsbuf, size(bsbuf) * 8)
  call MPI_Bsend(rank, 1, MPI_INTEGER, nxt, 6, MPI_COMM_WORLD)
  call MPI_Recv(cnt, 1, MPI_INTEGER, prv, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(cnt == prv, 'Bsend')
  call MPI_Buffer_detach(addr, nlen)
  ! (not compared with c_loc(bsbuf): gfortran -O2 folds that to .false.,
  ! bsbuf's address having escaped only through a non-TARGET dummy)
  call check(c_associated(addr) .and. nlen == size(bsbuf) * 8, 'Buffer_detach')

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
