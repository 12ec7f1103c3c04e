! The mpi module's conversions: CHARACTER arguments (hidden lengths,
! leading/trailing blanks), LOGICAL arguments, attribute values,
! topologies with MPI_UNWEIGHTED and weights, MPI_Type_create_f90_*, and error classes returned to
! Fortran under MPI_ERRORS_RETURN for bad handles and counts.
program f90_misc
  use mpi
  implicit none
  integer :: ierr, rank, nproc, errs, n, cls, info, nkeys, buflen
  integer :: cart, sub, dims(2), coords(2), src, dst, graph, indeg, outdeg
  integer :: srcs(1), dsts(1), dtype, sz, res, keyval
  logical :: periods(2), remain(2), flag, weighted
  integer(kind=MPI_ADDRESS_KIND) :: aval
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_ERROR_STRING) :: estr
  character(len=MPI_MAX_INFO_VAL) :: val
  character(len=8) :: short
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  integer :: ibuf(4), i
  integer, parameter :: types(16) = (/ MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION, &
      MPI_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_LOGICAL, MPI_CHARACTER, MPI_2INTEGER, &
      MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_INTEGER8, MPI_REAL8, MPI_COMPLEX16, &
      MPI_BYTE, MPI_PACKED, MPI_INT /)
  character(len=24), parameter :: tnames(16) = (/ character(len=24) :: 'MPI_INTEGER', &
      'MPI_REAL', 'MPI_DOUBLE_PRECISION', 'MPI_COMPLEX', 'MPI_DOUBLE_COMPLEX', &
      'MPI_LOGICAL', 'MPI_CHARACTER', 'MPI_2INTEGER', 'MPI_2REAL', &
      'MPI_2DOUBLE_PRECISION', 'MPI_INTEGER8', 'MPI_REAL8', 'MPI_COMPLEX16', &
      'MPI_BYTE', 'MPI_PACKED', 'MPI_INT' /)

  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)

  ! strings: trailing blanks dropped on input, output blank-padded
  call MPI_Comm_set_name(MPI_COMM_SELF, 'self named   ', ierr)
  name = 'garbage garbage garbage'
  call MPI_Comm_get_name(MPI_COMM_SELF, name, n, ierr)
  call check(name == 'self named' .and. n == 10, 'Comm_get_name')
  short = 'xxxxxxxx'
  call MPI_Comm_get_name(MPI_COMM_SELF, short, n, ierr)
  call check(short == 'self nam', 'name cut to the Fortran length')
  call MPI_Error_string(MPI_ERR_COUNT, estr, n, ierr)
  call check(n > 0 .and. len_trim(estr) == n, 'Error_string length')
  call MPI_Get_library_version(version, n, ierr)
  call check(index(version, 'ucmpi') > 0, 'Get_library_version')
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'color  ', 'blue sky   ', ierr)
  call MPI_Info_get_nkeys(info, nkeys, ierr)
  call MPI_Info_get_nthkey(info, 0, name, ierr)
  call check(nkeys == 1 .and. name == 'color', 'Info key without blanks')
  buflen = len(val)
  call MPI_Info_get_string(info, 'color', buflen, val, flag, ierr)
  call check(flag .and. val == 'blue sky' .and. buflen == 8, 'Info_get_string')
  buflen = 0
  call MPI_Info_get_string(info, 'colour', buflen, val, flag, ierr)
  call check(.not. flag, 'Info_get_string of a missing key')
  ! MPI-4.1 10.1: leading blanks of Fortran keys and values go too
  call MPI_Info_set(info, '  shade', '  dark ', ierr)
  call MPI_Info_get(info, 'shade', MPI_MAX_INFO_VAL, val, flag, ierr)
  call check(flag .and. val == 'dark', 'Info key and value without leading blanks')
  val = 'untouched'
  call MPI_Info_get(info, 'colour', MPI_MAX_INFO_VAL, val, flag, ierr)
  call check(.not. flag .and. val == 'untouched', 'Info_get of a missing key leaves value')
  call MPI_Info_free(info, ierr)
  call check(info == MPI_INFO_NULL, 'Info_free sets MPI_INFO_NULL')

  ! predefined handles: mpif.h's numbers name the right C objects
  call MPI_Comm_get_name(MPI_COMM_WORLD, name, n, ierr)
  call check(name == 'MPI_COMM_WORLD', 'MPI_COMM_WORLD is the world')
  do i = 1, size(types)
    call MPI_Type_get_name(types(i), name, n, ierr)
    if (name /= tnames(i)) then
      print *, rank, ': handle of ', trim(tnames(i)), ' names ', trim(name)
      errs = errs + 1
    end if
  end do

  ! LOGICAL results
  call MPI_Initialized(flag, ierr)
  call check(flag, 'Initialized')
  call MPI_Comm_test_inter(MPI_COMM_WORLD, flag, ierr)
  call check(.not. flag, 'Comm_test_inter')
  call MPI_Op_commutative(MPI_SUM, flag, ierr)
  call check(flag, 'Op_commutative')

  ! attributes: predefined values arrive as values, user ones round-trip
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, aval, flag, ierr)
  call check(flag .and. aval >= 32767, 'MPI_TAG_UB attribute')
  call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, n, flag, ierr)
  call check(flag .and. n == aval, 'MPI_Attr_get of MPI_TAG_UB')

  ! a periodic 2-D Cartesian grid, a row of it, and a shift
  dims = 0
  call MPI_Dims_create(nproc, 2, dims, ierr)
  periods = (/ .true., .false. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  periods = (/ .false., .true. /)
  call MPI_Cart_get(cart, 2, dims, periods, coords, ierr)
  call check(periods(1) .and. .not. periods(2), 'Cart_get periods')
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  call check(src /= MPI_PROC_NULL .and. dst /= MPI_PROC_NULL, 'periodic shift')
  call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
  call check((coords(2) == dims(2) - 1) .eqv. (dst == MPI_PROC_NULL), 'open shift')
  remain = (/ .false., .true. /)
  call MPI_Cart_sub(cart, remain, sub, ierr)
  call MPI_Comm_size(sub, n, ierr)
  call check(n == dims(2), 'Cart_sub size')
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_free(cart, ierr)
  call check(cart == MPI_COMM_NULL, 'Comm_free sets MPI_COMM_NULL')

  ! a ring as a distributed graph without weights
  srcs(1) = mod(rank + nproc - 1, nproc)
  dsts(1) = mod(rank + 1, nproc)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, MPI_UNWEIGHTED, 1, dsts, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., graph, ierr)
  call MPI_Dist_graph_neighbors_count(graph, indeg, outdeg, weighted, ierr)
  call check(indeg == 1 .and. outdeg == 1 .and. .not. weighted, 'unweighted graph')
  ibuf = rank
  call MPI_Neighbor_allgather(ibuf, 1, MPI_INTEGER, ibuf(2), 1, MPI_INTEGER, graph, ierr)
  call check(ibuf(2) == srcs(1), 'Neighbor_allgather')
  call MPI_Comm_free(graph, ierr)
  ! with weights: the weight arguments are arrays in the mpi module
  ibuf = (/ 7, 9, 0, 0 /)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, ibuf(1:1), 1, dsts, &
                                      ibuf(2:2), MPI_INFO_NULL, .false., graph, ierr)
  call MPI_Dist_graph_neighbors(graph, 1, srcs, ibuf(3:3), 1, dsts, ibuf(4:4), ierr)
  call check(ibuf(3) == 7 .and. ibuf(4) == 9, 'Dist_graph_neighbors weights')
  call MPI_Comm_free(graph, ierr)

  ! MPI_DISPLACEMENT_CURRENT has the offset kind (it is passed as a disp)
  call check(kind(MPI_DISPLACEMENT_CURRENT) == MPI_OFFSET_KIND, 'DISPLACEMENT_CURRENT kind')

  ! Fortran kinds as datatypes
  call MPI_Type_create_f90_real(15, 300, dtype, ierr)
  call MPI_Type_size(dtype, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 8, 'f90_real(15,300) is 8 bytes')
  call MPI_Type_create_f90_integer(9, dtype, ierr)
  call MPI_Type_size(dtype, sz, ierr)
  call check(sz == 4, 'f90_integer(9) is 4 bytes')
  call MPI_Type_size(MPI_DOUBLE_COMPLEX, sz, ierr)
  call check(sz == 16, 'DOUBLE COMPLEX is 16 bytes')
  call MPI_Type_size(MPI_LOGICAL, sz, ierr)
  call check(sz == 4, 'LOGICAL is 4 bytes')
  call MPI_Sizeof(aval, sz, ierr)
  call check(sz == 8, 'MPI_Sizeof of an address integer')
  call MPI_Sizeof(periods, sz, ierr)
  call check(sz == 4, 'MPI_Sizeof of a LOGICAL array')
  call MPI_Sizeof(name, sz, ierr)
  call check(sz == 1, 'MPI_Sizeof of a CHARACTER')
  call MPI_Sizeof((1d0, 0d0), sz, ierr)
  call check(sz == 16, 'MPI_Sizeof of a double complex')

  ! errors come back to Fortran with their class
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(ibuf, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, n)
  call check(cls == MPI_ERR_COUNT, 'negative count gives MPI_ERR_COUNT')
  call MPI_Send(ibuf, 1, MPI_INTEGER, 0, 0, MPI_COMM_NULL, ierr)
  call MPI_Error_class(ierr, cls, n)
  call check(cls == MPI_ERR_COMM, 'MPI_COMM_NULL gives MPI_ERR_COMM')
  call MPI_Send(ibuf, 1, 987654, 0, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, n)
  call check(cls == MPI_ERR_TYPE, 'unknown datatype handle gives MPI_ERR_TYPE')
  call MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, res, ierr)
  call check(res == MPI_IDENT, 'Comm_compare')

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

