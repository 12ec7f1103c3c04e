! Fixed source form (built with -ffixed-form), as an mpif.h program.
! Point-to-point through mpif.h (fixed form): data, statuses, 1-based
! indices from Waitany/Waitsome, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE,
! MPI_PROC_NULL, and MPI_BOTTOM with absolute addresses.
      program f77p2p
      implicit none
      include 'mpif.h'
      integer ierr, rank, nproc, nxt, prv, i, n, idx, outc
      integer buf(8), rbuf(8), st(MPI_STATUS_SIZE)
      integer sts(MPI_STATUS_SIZE, 2), reqs(2), idxs(2)
      double precision dsend(3), drecv(3)
      integer errs, cnt, dtype, blens(1), types(1)
      integer(kind=MPI_ADDRESS_KIND) addrs(1)
      logical flag
      errs = 0
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierr)
      nxt = mod(rank + 1, nproc)
      prv = mod(rank + nproc - 1, nproc)

!     ring Sendrecv with a status
      do i = 1, 8
         buf(i) = 100 * rank + i
         rbuf(i) = -1
      enddo
      call MPI_SENDRECV(buf, 8, MPI_INTEGER, nxt, 11, rbuf, 8,
     &     MPI_INTEGER, prv, 11, MPI_COMM_WORLD, st, ierr)
      call MPI_GET_COUNT(st, MPI_INTEGER, cnt, ierr)
      if (st(MPI_SOURCE) .ne. prv .or. st(MPI_TAG) .ne. 11 .or.
     &    cnt .ne. 8) then
         print *, rank, ': sendrecv status', st(MPI_SOURCE),
     &        st(MPI_TAG), cnt
         errs = errs + 1
      endif
      do i = 1, 8
         if (rbuf(i) .ne. 100 * prv + i) errs = errs + 1
      enddo

!     nonblocking: Waitany gives a 1-based index, then Waitall ignores
      call MPI_IRECV(drecv, 3, MPI_DOUBLE_PRECISION, prv, 12,
     &     MPI_COMM_WORLD, reqs(1), ierr)
      do i = 1, 3
         dsend(i) = rank + i / 4.0d0
      enddo
      call MPI_ISEND(dsend, 3, MPI_DOUBLE_PRECISION, nxt, 12,
     &     MPI_COMM_WORLD, reqs(2), ierr)
      call MPI_WAITANY(2, reqs, idx, st, ierr)
      if (idx .lt. 1 .or. idx .gt. 2) then
         print *, rank, ': waitany index', idx
         errs = errs + 1
      endif
      if (reqs(idx) .ne. MPI_REQUEST_NULL) errs = errs + 1
      call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
      if (reqs(1) .ne. MPI_REQUEST_NULL .or.
     &    reqs(2) .ne. MPI_REQUEST_NULL) errs = errs + 1
      do i = 1, 3
         if (drecv(i) .ne. prv + i / 4.0d0) errs = errs + 1
      enddo

!     Waitsome: indices are 1-based, statuses per completed request
      call MPI_IRECV(rbuf, 8, MPI_INTEGER, prv, 13, MPI_COMM_WORLD,
     &     reqs(1), ierr)
      call MPI_ISEND(buf, 5, MPI_INTEGER, nxt, 13, MPI_COMM_WORLD,
     &     reqs(2), ierr)
      n = 0
   10 if (n .lt. 2) then
         call MPI_WAITSOME(2, reqs, outc, idxs, sts, ierr)
         do i = 1, outc
            if (idxs(i) .lt. 1 .or. idxs(i) .gt. 2) errs = errs + 1
            if (idxs(i) .eq. 1) then
               call MPI_GET_COUNT(sts(1, i), MPI_INTEGER, cnt, ierr)
               if (cnt .ne. 5 .or. sts(MPI_SOURCE, i) .ne. prv .or.
     &             sts(MPI_TAG, i) .ne. 13) then
                  print *, rank, ': waitsome status', cnt,
     &                 sts(MPI_SOURCE, i), sts(MPI_TAG, i)
                  errs = errs + 1
               endif
            endif
         enddo
         n = n + outc
         goto 10
      endif

!     MPI_PROC_NULL: the standard's empty status
      call MPI_RECV(rbuf, 8, MPI_INTEGER, MPI_PROC_NULL, 1,
     &     MPI_COMM_WORLD, st, ierr)
      call MPI_GET_COUNT(st, MPI_INTEGER, cnt, ierr)
      if (st(MPI_SOURCE) .ne. MPI_PROC_NULL .or. st(MPI_TAG) .ne.
     &    MPI_ANY_TAG .or. cnt .ne. 0) then
         print *, rank, ': proc_null status', st(MPI_SOURCE),
     &        st(MPI_TAG), cnt
         errs = errs + 1
      endif

!     MPI_BOTTOM: a struct type holding the absolute address of buf
      call MPI_GET_ADDRESS(buf, addrs(1), ierr)
      blens(1) = 8
      types(1) = MPI_INTEGER
      call MPI_TYPE_CREATE_STRUCT(1, blens, addrs, types, dtype, ierr)
      call MPI_TYPE_COMMIT(dtype, ierr)
      do i = 1, 8
         buf(i) = 1000 * rank + i
      enddo
      call MPI_SENDRECV(MPI_BOTTOM, 1, dtype, nxt, 14, rbuf, 8,
     &     MPI_INTEGER, prv, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE,
     &     ierr)
      do i = 1, 8
         if (rbuf(i) .ne. 1000 * prv + i) errs = errs + 1
      enddo
      call MPI_TYPE_FREE(dtype, ierr)
      if (dtype .ne. MPI_DATATYPE_NULL) errs = errs + 1

!     Iprobe/Probe with a LOGICAL flag
      call MPI_ISEND(buf, 2, MPI_INTEGER, nxt, 15, MPI_COMM_WORLD,
     &     reqs(1), ierr)
      flag = .false.
   20 if (.not. flag) then
         call MPI_IPROBE(prv, 15, MPI_COMM_WORLD, flag, st, ierr)
         goto 20
      endif
      call MPI_GET_COUNT(st, MPI_INTEGER, cnt, ierr)
      if (cnt .ne. 2) errs = errs + 1
      call MPI_RECV(rbuf, 2, MPI_INTEGER, prv, 15, MPI_COMM_WORLD,
     &     MPI_STATUS_IGNORE, ierr)
      call MPI_WAIT(reqs(1), MPI_STATUS_IGNORE, ierr)

      call MPI_ALLREDUCE(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, ierr)
      if (errs .ne. 0) then
         if (rank .eq. 0) print *, 'Found', errs, 'errors'
         call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
      endif
      if (rank .eq. 0) print *, 'No Errors'
      call MPI_FINALIZE(ierr)
      end
