! MPI_Comm_spawn and MPI_Comm_spawn_multiple from mpi_f08: blank-padded
! argv lists (trailing blanks dropped, leading ones kept), MPI_ARGVS_NULL,
! MPI_ERRCODES_IGNORE, MPI_APPNUM, and the parent intercommunicator merged
! for a collective.  The children are this program, told apart by argv.
program f08_spawn
  use mpi_f08
  implicit none
  type(MPI_Comm) :: parent
  integer :: errs

  errs = 0
  call MPI_Init()
  call MPI_Comm_get_parent(parent)
  if (parent == MPI_COMM_NULL) then
    call run_parent()
  else
    call run_child(parent)
  end if
  call MPI_Finalize()

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      errs = errs + 1
      print '(a, a)', 'f08_spawn: failed: ', what
    end if
  end subroutine

  ! merged with the other side: every process adds 1 and its errors
  subroutine meet(inter, high, total)
    type(MPI_Comm), intent(inout) :: inter
    logical, intent(in) :: high
    integer, intent(out) :: total(2)
    type(MPI_Comm) :: all
    integer :: mine(2)
    call MPI_Intercomm_merge(inter, high, all)
    mine = [1, errs]
    call MPI_Allreduce(mine, total, 2, MPI_INTEGER, MPI_SUM, all)
    call MPI_Comm_free(all)
    call MPI_Comm_disconnect(inter)
  end subroutine

  subroutine run_parent()
    character(len=512) :: self
    character(len=12) :: argv(3), argvs(2, 3)
    character(len=512) :: cmds(2)
    integer :: np, rsize, codes(2), maxprocs(2), total(2), ierr
    type(MPI_Comm) :: inter
    type(MPI_Info) :: infos(2)

    call MPI_Comm_size(MPI_COMM_WORLD, np)
    call get_command_argument(0, self)

    argv = [character(len=12) :: 'child', '   x y  ', ' ']
    codes = -1
    call MPI_Comm_spawn(self, argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, codes, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Comm_spawn returned an error')
    call check(all(codes == MPI_SUCCESS), 'spawn error codes are not MPI_SUCCESS')
    call MPI_Comm_remote_size(inter, rsize)
    call check(rsize == 2, 'spawn: remote size is not 2')
    call meet(inter, .false., total)
    call check(total(1) == np + 2, 'spawn: merged size')
    call check(total(2) == 0, 'spawn: a process found an error')

    cmds = self
    argvs = ' '
    argvs(1, 1) = 'multi'
    argvs(1, 2) = ' a'
    argvs(2, 1) = 'multi'
    argvs(2, 2) = 'b '
    maxprocs = [1, 2]
    infos = MPI_INFO_NULL
    call MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &
                                 inter, MPI_ERRCODES_IGNORE)
    call MPI_Comm_remote_size(inter, rsize)
    call check(rsize == 3, 'spawn_multiple: remote size is not 3')
    call meet(inter, .false., total)
    call check(total(1) == np + 3, 'spawn_multiple: merged size')
    call check(total(2) == 0, 'spawn_multiple: a process found an error')

    call MPI_Comm_spawn_multiple(1, cmds, MPI_ARGVS_NULL, maxprocs, infos, 0, &
                                 MPI_COMM_WORLD, inter, MPI_ERRCODES_IGNORE)
    call meet(inter, .false., total)
    call check(total(1) == np + 1, 'MPI_ARGVS_NULL: merged size')
    call check(total(2) == 0, 'MPI_ARGVS_NULL: the child found an error')

    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call MPI_Comm_rank(MPI_COMM_WORLD, rsize)
    if (rsize == 0 .and. errs == 0) print '(a)', ' No Errors'
  end subroutine

  subroutine run_child(parent)
    type(MPI_Comm), intent(inout) :: parent
    character(len=32) :: mode, arg
    integer :: nargs, total(2)
    integer(kind=MPI_ADDRESS_KIND) :: appnum
    logical :: flag

    nargs = command_argument_count()
    mode = ' '
    if (nargs >= 1) call get_command_argument(1, mode)
    if (nargs >= 2) call get_command_argument(2, arg)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, appnum, flag)
    if (mode == 'child') then
      call check(nargs == 2 .and. arg == '   x y', 'child: argv is not (child, "   x y")')
    else if (mode == 'multi') then
      call check(flag, 'multi: no MPI_APPNUM')
      call check(nargs == 2, 'multi: not 2 arguments')
      if (appnum == 0) call check(arg == ' a', 'multi: command 0 did not get " a"')
      if (appnum == 1) call check(arg == 'b', 'multi: command 1 did not get "b"')
    else
      call check(nargs == 0, 'MPI_ARGVS_NULL: the child got arguments')
    end if
    call meet(parent, .true., total)
  end subroutine
end program
