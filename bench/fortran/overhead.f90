! fortran_overhead: what the Fortran binding adds to an 8-byte
! MPI_Send/MPI_Recv ping-pong.  Rounds of the C ping-pong
! (overhead_c.c) and of the same loop through the mpi module
! alternate in one job; each reports its median half round trip.
!
!   mpiexec -n 2 bench/fortran_overhead [ROUNDS [ITERS]]
program fortran_overhead
  use mpi
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  interface
    function c_pingpong(iters, rank) bind(c, name='ucmpi_bench_c_pingpong')
      import :: c_int, c_double
      integer(c_int), value :: iters, rank
      real(c_double) :: c_pingpong
    end function
  end interface
  integer :: ierr, rank, nproc, rounds, iters, r
  double precision, allocatable :: tc(:), tf(:)
  character(len=16) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  if (nproc < 2) then
    if (rank == 0) print *, 'fortran_overhead: needs 2 ranks'
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  rounds = 21
  iters = 20000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) rounds
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) iters
  end if
  allocate(tc(rounds), tf(rounds))
  tc(1) = c_pingpong(iters / 10, rank)          ! warm-up
  tf(1) = f_pingpong(iters / 10)
  do r = 1, rounds
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    tc(r) = c_pingpong(iters, rank)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    tf(r) = f_pingpong(iters)
  end do
  if (rank == 0) then
    print '(a)', '# 8-byte ping-pong, half round trip (us), median of rounds'
    print '(a, f8.3)', 'C        ', median(tc) / iters / 2 * 1d6
    print '(a, f8.3)', 'Fortran  ', median(tf) / iters / 2 * 1d6
    print '(a, f8.3)', 'ratio    ', median(tf) / median(tc)
  end if
  call MPI_Finalize(ierr)

contains

  double precision function f_pingpong(n)
    integer, intent(in) :: n
    double precision :: buf, t0
    integer :: i
    buf = 0
    t0 = MPI_Wtime()
    do i = 1, n
      if (rank == 0) then
        call MPI_Send(buf, 1, MPI_DOUBLE_PRECISION, 1, 1, MPI_COMM_WORLD, ierr)
        call MPI_Recv(buf, 1, MPI_DOUBLE_PRECISION, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      else if (rank == 1) then
        call MPI_Recv(buf, 1, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Send(buf, 1, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, ierr)
      end if
    end do
    f_pingpong = MPI_Wtime() - t0
  end function

  double precision function median(t)
    double precision, intent(in) :: t(:)
    double precision :: s(size(t)), x
    integer :: i, j
    s = t
    do i = 2, size(s)          ! insertion sort: a few dozen rounds
      x = s(i)
      j = i - 1
      do while (j >= 1)
        if (s(j) <= x) exit
        s(j + 1) = s(j)
        j = j - 1
      end do
      s(j + 1) = x
    end do
    median = s((size(s) + 1) / 2)
  end function
end program
