! Collectives through the mpi module: MPI_IN_PLACE in Allreduce, Reduce,
! Allgather and Gather; every Fortran datatype in a reduction, LOGICAL
! operations on MPI_LOGICAL, MINLOC/MAXLOC on the Fortran pair types.
program f90_reduce
  use mpi
  implicit none
  integer :: ierr, rank, nproc, errs, i
  integer :: ival, isum
  integer(kind=8) :: i8
  integer(kind=2) :: i2
  integer(kind=1) :: i1
  real :: r, r4(3)
  real(kind=8) :: r8
  double precision :: d
  complex :: c
  double complex :: dc
  logical :: l, lall, lany, lx
  integer :: p2i(2), q2i(2)
  real :: p2r(2)
  double precision :: p2d(2)
  integer, allocatable :: gat(:)
  character(len=12) :: word

  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)

  ! sums with MPI_IN_PLACE over INTEGER, REAL, DOUBLE PRECISION, COMPLEX
  ival = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ival == nproc * (nproc + 1) / 2, 'INTEGER sum in place')
  r = real(rank)
  call MPI_Allreduce(MPI_IN_PLACE, r, 1, MPI_REAL, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(r == real(nproc - 1), 'REAL max in place')
  d = 0.5d0 * rank
  call MPI_Allreduce(MPI_IN_PLACE, d, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(abs(d - 0.25d0 * nproc * (nproc - 1)) < 1d-12, 'DOUBLE PRECISION sum')
  c = cmplx(1.0, real(rank))
  call MPI_Allreduce(MPI_IN_PLACE, c, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(abs(c - cmplx(real(nproc), 0.5 * nproc * (nproc - 1))) < 1e-4, 'COMPLEX sum')
  dc = dcmplx(0d0, 1d0)
  call MPI_Allreduce(MPI_IN_PLACE, dc, 1, MPI_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD, ierr)
  call check(abs(dc - (0d0, 1d0)**nproc) < 1d-12, 'DOUBLE COMPLEX prod')

  ! sized kinds, not in place
  i8 = int(rank, 8) * 2_8**33
  call MPI_Allreduce(MPI_IN_PLACE, i8, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(i8 == int(nproc * (nproc - 1) / 2, 8) * 2_8**33, 'INTEGER8 sum')
  i2 = int(rank, 2)
  call MPI_Allreduce(MPI_IN_PLACE, i2, 1, MPI_INTEGER2, MPI_MIN, MPI_COMM_WORLD, ierr)
  call check(i2 == 0, 'INTEGER2 min')
  i1 = int(rank, 1)
  call MPI_Allreduce(MPI_IN_PLACE, i1, 1, MPI_INTEGER1, MPI_BOR, MPI_COMM_WORLD, ierr)
  call check(i1 == int(orall(nproc), 1), 'INTEGER1 bor')
  r8 = 1d0 + rank
  call MPI_Allreduce(MPI_IN_PLACE, r8, 1, MPI_REAL8, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(r8 == dble(nproc), 'REAL8 max')
  r4 = (/ 1.0, 2.0, 3.0 /) * rank
  call MPI_Allreduce(MPI_IN_PLACE, r4, 3, MPI_REAL4, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(all(r4 == (/ 1.0, 2.0, 3.0 /) * (nproc * (nproc - 1) / 2)), 'REAL4 sum')

  ! LOGICAL reductions
  l = rank == 0
  call MPI_Allreduce(l, lall, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(l, lany, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  l = .true.
  call MPI_Allreduce(l, lx, 1, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD, ierr)
  call check(lall .eqv. (nproc == 1), 'LOGICAL land')
  call check(lany, 'LOGICAL lor')
  call check(lx .eqv. (mod(nproc, 2) == 1), 'LOGICAL lxor')

  ! MINLOC / MAXLOC on the pair types: value, then rank
  p2i = (/ mod(rank, 2), rank /)
  call MPI_Allreduce(p2i, q2i, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  if (nproc > 1) then
    call check(q2i(1) == 1 .and. q2i(2) == 1, '2INTEGER maxloc')
  end if
  p2r = (/ real(10 - rank), real(rank) /)
  call MPI_Allreduce(MPI_IN_PLACE, p2r, 1, MPI_2REAL, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  call check(p2r(1) == real(11 - nproc) .and. p2r(2) == real(nproc - 1), '2REAL minloc')
  p2d = (/ 7d0, dble(rank) /)
  call MPI_Allreduce(MPI_IN_PLACE, p2d, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  call check(p2d(1) == 7d0 .and. p2d(2) == 0d0, '2DOUBLE_PRECISION minloc ties to lowest')

  ! Reduce in place at the root, Scan, Exscan
  ival = rank
  if (rank == 0) then
    call MPI_Reduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    call check(ival == nproc * (nproc - 1) / 2, 'Reduce in place')
  else
    call MPI_Reduce(ival, isum, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  end if
  ival = 1
  call MPI_Scan(ival, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(isum == rank + 1, 'Scan')

  ! Allgather and Gather in place
  allocate(gat(nproc))
  gat = -1
  gat(rank + 1) = 10 * rank
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gat, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(gat == (/ (10 * i, i = 0, nproc - 1) /)), 'Allgather in place')
  gat = -1
  gat(rank + 1) = 3 * rank
  if (rank == nproc - 1) then
    call MPI_Gather(MPI_IN_PLACE, 1, MPI_INTEGER, gat, 1, MPI_INTEGER, nproc - 1, MPI_COMM_WORLD, ierr)
    call check(all(gat == (/ (3 * i, i = 0, nproc - 1) /)), 'Gather in place')
  else
    call MPI_Gather(gat(rank + 1), 1, MPI_INTEGER, gat, 1, MPI_INTEGER, nproc - 1, MPI_COMM_WORLD, ierr)
  end if

  ! CHARACTER data
  word = 'rank0 words'
  if (rank /= 0) word = ' '
  call MPI_Bcast(word, len(word), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
  call check(word == 'rank0 words', 'Bcast CHARACTER')

  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (errs /= 0) then
    if (rank == 0) print *, 'Found', errs, 'errors'
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  if (rank == 0) print *, 'No Errors'
  deallocate(gat)
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

  integer function orall(n)
    integer, intent(in) :: n
    integer :: k
    orall = 0
    do k = 0, n - 1
      orall = ior(orall, k)
    end do
  end function
end program
