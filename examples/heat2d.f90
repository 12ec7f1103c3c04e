! heat2d: the steady 2-D heat equation (Laplace) by Jacobi iteration on a
! grid split over a 2-D Cartesian process grid.  Each step exchanges halo
! rows and columns with the four neighbours (MPI_Sendrecv; a halo row is
! strided in Fortran's column-major order, hence a vector type) and sums
! the residual over all ranks (MPI_Allreduce).
!
!   mpifort -O2 heat2d.f90 -o heat2d && mpiexec -n 4 ./heat2d [N]
!
! The plate is N x N (default 128) with its top edge held at 1 and the
! other edges at 0.  Ranks at the plate's border have MPI_PROC_NULL
! neighbours, for which MPI_Sendrecv does nothing.
program heat2d
  use mpi_f08
  implicit none
  integer, parameter :: dp = kind(1d0), max_steps = 20000
  real(dp), parameter :: tol = 1d-6
  type(MPI_Comm) :: grid
  type(MPI_Datatype) :: row
  integer :: nproc, rank, dims(2), coords(2), n, nx, ny, step
  integer :: west, east, south, north, i0, j0
  real(dp), allocatable :: u(:, :), unew(:, :)
  real(dp) :: res
  character(len=16) :: arg

  call MPI_Init()
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)
  n = 128
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if

  ! a process grid as square as nproc allows; let MPI renumber ranks
  dims = 0
  call MPI_Dims_create(nproc, 2, dims)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, [.false., .false.], .true., grid)
  call MPI_Comm_rank(grid, rank)
  call MPI_Cart_coords(grid, rank, 2, coords)
  call MPI_Cart_shift(grid, 0, 1, west, east)
  call MPI_Cart_shift(grid, 1, 1, south, north)

  ! this rank's block of interior points, i0/j0 its offset in the plate
  call block(n, dims(1), coords(1), nx, i0)
  call block(n, dims(2), coords(2), ny, j0)
  allocate(u(0:nx + 1, 0:ny + 1), unew(0:nx + 1, 0:ny + 1))
  u = 0
  if (coords(2) == dims(2) - 1) u(:, ny + 1) = 1     ! the hot top edge
  unew = u

  ! u(i, j) for fixed j is contiguous (a column of x); for fixed i it is
  ! one element every nx + 2
  call MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, row)
  call MPI_Type_commit(row)

  do step = 1, max_steps
    call exchange(u)
    unew(1:nx, 1:ny) = 0.25_dp * (u(0:nx - 1, 1:ny) + u(2:nx + 1, 1:ny) + &
                                  u(1:nx, 0:ny - 1) + u(1:nx, 2:ny + 1))
    res = sum((unew(1:nx, 1:ny) - u(1:nx, 1:ny))**2)
    call MPI_Allreduce(MPI_IN_PLACE, res, 1, MPI_DOUBLE_PRECISION, MPI_SUM, grid)
    u(1:nx, 1:ny) = unew(1:nx, 1:ny)
    if (sqrt(res) < tol) exit
  end do

  if (rank == 0) print '(a, i0, a, i0, a, i0, a, i0, a, es9.2)', 'heat2d: ', n, 'x', n, &
       ' plate on ', nproc, ' ranks, ', min(step, max_steps), ' steps, residual ', sqrt(res)
  call MPI_Type_free(row)
  call MPI_Comm_free(grid)
  call MPI_Finalize()

contains

  ! n points over p ranks: the first mod(n, p) ranks get one more
  subroutine block(n, p, c, count, offset)
    integer, intent(in) :: n, p, c
    integer, intent(out) :: count, offset
    count = n / p
    offset = c * count + min(c, mod(n, p))
    if (c < mod(n, p)) count = count + 1
  end subroutine

  ! halo exchange: send the edge of the block, receive the neighbour's
  ! into the halo, in each direction
  subroutine exchange(u)
    real(dp), intent(inout) :: u(0:, 0:)
    call MPI_Sendrecv(u(nx, 1), 1, row, east, 1, u(0, 1), 1, row, west, 1, grid, &
                      MPI_STATUS_IGNORE)
    call MPI_Sendrecv(u(1, 1), 1, row, west, 2, u(nx + 1, 1), 1, row, east, 2, grid, &
                      MPI_STATUS_IGNORE)
    call MPI_Sendrecv(u(1, ny), nx, MPI_DOUBLE_PRECISION, north, 3, u(1, 0), nx, &
                      MPI_DOUBLE_PRECISION, south, 3, grid, MPI_STATUS_IGNORE)
    call MPI_Sendrecv(u(1, 1), nx, MPI_DOUBLE_PRECISION, south, 4, u(1, ny + 1), nx, &
                      MPI_DOUBLE_PRECISION, north, 4, grid, MPI_STATUS_IGNORE)
  end subroutine
end program
