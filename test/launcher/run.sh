#!/usr/bin/env bash
# Shell tests of mpiexec and the runtime client.  Run from the build directory:
#   /path/to/src/test/launcher/run.sh            (all tests)
#   TEST_FILTER=regex .../run.sh                 (some)
# Environment: MPIEXEC (default ./runtime/mpiexec), RT_CLIENT (default
# ./test/launcher/rt_client, `make test/launcher/rt_client` builds it),
# TEST_TIMEOUT_SCALE (multiply time bounds, e.g. 4 for an --enable-asan build).
# Prints one line per test, the time each failure took to end the job, and
# finally "launcher: N passed, N failed".
set -u
MPIEXEC=${MPIEXEC:-$PWD/runtime/mpiexec}
CLIENT=${RT_CLIENT:-$PWD/test/launcher/rt_client}
MPIJOB=${MPI_JOB:-$PWD/test/launcher/mpi_job}     # a real MPI program; tests skip without it
filter=${TEST_FILTER:-.}
scale=${TEST_TIMEOUT_SCALE:-1}
here=$(cd "$(dirname "$0")" && pwd)
# under --enable-asan: libpmix's own leaks are not ours
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/lsan.supp:print_suppressions=0}
asan=0
ldd "$CLIENT" 2>/dev/null | grep -q libasan && asan=1
work=$(mktemp -d "${TMPDIR:-/tmp}/launcher-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 failed=()
out=$work/out err=$work/err

now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc; }
lt() { [ "$(echo "$1 < $2 * $scale" | bc)" = 1 ]; }

# run_mpiexec SECONDS ARGS...: runs mpiexec with a hard bound; sets rc and secs
run_mpiexec() {
    local bound=$1 t0
    shift
    t0=$(now)
    timeout -k 2 $((bound * scale)) "$MPIEXEC" "$@" >"$out" 2>"$err" </dev/null
    rc=$?
    secs=$(elapsed "$t0")
}

ok() { pass=$((pass + 1)); echo "PASS: $name${1:+ ($1)}"; }
bad() {
    fail=$((fail + 1)); failed+=("$name"); echo "FAIL: $name: $1"
    { sed 's/^/    out| /' "$out"; sed 's/^/    err| /' "$err"; } 2>/dev/null | tail -n 20
}
want() {   # want CONDITION-DESCRIPTION COMMAND...
    local what=$1
    shift
    "$@" || { bad "$what (exit $rc)"; return 1; }
}
has() { grep -q -- "$2" "$1"; }
hasnt() { ! grep -q -- "$2" "$1"; }
# the "job ended X s after the failure" line of -v
ended() { sed -n 's/.*job ended \([0-9.]*\) s after the failure.*/\1/p' "$err"; }
pids_gone() {   # none of the "pid N" printed by rt_client sleep is alive
    local p
    for p in $(sed -n 's/.*pid \([0-9]*\) sleeping.*/\1/p' "$out"); do
        kill -0 "$p" 2>/dev/null && return 1
    done
    return 0
}

t_info() {
    for n in 1 2 3 4 8; do
        run_mpiexec 60 -n $n env EXPECT_SIZE=$n EXPECT_SINGLETON=0 "$CLIENT" info
        want "n=$n ok" [ $rc = 0 ] || return
        want "n=$n all ranks OK" [ "$(grep -c ' OK$' "$out")" = $n ] || return
    done
    ok
}

t_node_sources() {   # PMIX_NODEID, else PMIX_HOSTNAME, else host names via the modex
    for src in nodeid hostname modex; do
        run_mpiexec 60 -n 4 -x UCMPI_RT_TEST_NODE_SOURCE=$src "$CLIENT" info
        want "node from $src" [ $rc = 0 ] && want "$src: 4 OK" [ "$(grep -c ' OK$' "$out")" = 4 ] ||
            return
    done
    ok
}

t_modex_rounds() {
    run_mpiexec 60 -n 4 "$CLIENT" info 20
    want "20 modex rounds" [ $rc = 0 ] && ok
}

t_singleton() {
    EXPECT_SINGLETON=1 EXPECT_SIZE=1 timeout 20 "$CLIENT" info >"$out" 2>"$err"
    rc=$?
    want "singleton runs" [ $rc = 0 ] && want "singleton OK" has "$out" "rank 0 OK" && ok
}

t_refuse_launcher() {
    local env
    for env in "SLURM_STEP_ID=3 SLURM_STEP_NUM_TASKS=4" "PMI_RANK=1 PMI_SIZE=2" \
               "OMPI_COMM_WORLD_SIZE=2"; do
        env $env timeout 20 "$CLIENT" info >"$out" 2>"$err"
        rc=$?
        want "refuses under $env" [ $rc != 0 ] || return
        want "advises srun --mpi=pmix" has "$err" "srun --mpi=pmix" || return
        want "one line" [ "$(wc -l <"$err")" = 1 ] || return
    done
    SLURM_STEP_ID=3 SLURM_STEP_NUM_TASKS=1 timeout 20 "$CLIENT" info >"$out" 2>"$err"
    rc=$?
    want "1-task srun step is a singleton" [ $rc = 0 ] && ok
}

t_abort() {
    run_mpiexec 30 -v -n 4 "$CLIENT" abort 2 7
    want "exit 7" [ $rc = 7 ] || return
    want "names rank and message" has "$err" "rank 2 aborted the job with code 7: rt_client" || return
    ok "ended in $(ended) s, total $secs s"
}

t_segv() {
    ASAN_OPTIONS=handle_segv=0 run_mpiexec 30 -v -n 4 "$CLIENT" segv 1
    want "exit 139" [ $rc = 139 ] || return
    want "names rank 1 and SIGSEGV" has "$err" "rank 1 .*signal 11 (SIGSEGV)" || return
    want "output before the crash kept" has "$out" "rank 1 before crash" || return
    want "one failure line" [ "$(grep -c 'killed by signal' "$err")" = 1 ] || return
    ok "ended in $(ended) s, total $secs s"
}

t_exit_code() {
    run_mpiexec 30 -v -n 4 "$CLIENT" exit 3 5
    want "exit 5" [ $rc = 5 ] || return
    want "names rank 3" has "$err" "rank 3 .*exited with code 5 before finalizing" || return
    ok "ended in $(ended) s, total $secs s"
}

t_exit_zero_early() {
    run_mpiexec 30 -v -n 4 "$CLIENT" exit 1 0
    want "non-zero exit" [ $rc != 0 ] || return
    want "names rank 1" has "$err" "rank 1 .*without finalizing" || return
    ok "ended in $(ended) s, total $secs s"
}

# A rank that exits 0 without MPI_Init while the others wait in MPI_Init's
# fence ends the job, whether it leaves before or after they connect.
t_exit_before_init() {
    [ -x "$MPIJOB" ] || { ok "skipped: no $MPIJOB"; return; }
    local ms
    for ms in 0 1500; do
        run_mpiexec 60 -n 4 "$MPIJOB" noinit 2 $ms
        want "exit 1 (wait $ms ms)" [ $rc = 1 ] || return
        want "names rank 2 ($ms ms)" has "$err" "rank 2 .*exited with code 0 without calling MPI_Init" ||
            return
        want "no timeout needed ($ms ms)" lt "$secs" 10 || return
    done
    ok "$secs s"
}

t_shm_cleanup() {   # segment names of killed ranks are removed, others kept
    local other=/dev/shm/ucmpi-coll-999999999-1-1 left
    : > "$other"
    ASAN_OPTIONS=handle_segv=0:detect_leaks=0 run_mpiexec 60 -n 3 "$MPIJOB" shmleft 1
    left=$(sed -n 's/^rank [0-9]* left \(.*\)$/\1/p' "$out")
    want "segfault reported (exit 139)" [ $rc = 139 ] || { rm -f "$other"; return; }
    want "9 names printed" [ "$(echo "$left" | wc -w)" = 9 ] || { rm -f "$other"; return; }
    for f in $left; do
        want "$f removed" [ ! -e "$f" ] || { rm -f $left "$other"; return; }
    done
    want "another job's name kept" [ -e "$other" ] || return
    rm -f "$other"
    ok
}

t_exit_after_finalize() {
    run_mpiexec 30 -n 3 "$CLIENT" finexit 1 4
    want "exit 4" [ $rc = 4 ] && want "reported" has "$err" "rank 1 exited with code 4 after finalizing" && ok
}

# starts a sleeping job in the background; waits until all N ranks print
start_sleepers() {   # N SECONDS [mpiexec options]
    local n=$1 s=$2 i
    shift 2
    t0=$(now)
    "$MPIEXEC" -n "$n" "$@" "$CLIENT" sleep "$s" >"$out" 2>"$err" </dev/null &
    mpid=$!
    for i in $(seq 200); do
        [ "$(grep -c sleeping "$out")" = "$n" ] && return 0
        sleep 0.05
    done
    return 1
}

wait_mpiexec() {   # sets rc and secs (since $t1)
    local i
    for i in $(seq $((200 * scale))); do
        kill -0 $mpid 2>/dev/null || break
        sleep 0.02
    done
    kill -0 $mpid 2>/dev/null && { kill -9 $mpid; rc=999; return; }
    wait $mpid
    rc=$?
    secs=$(elapsed "$t1")
}

t_kill9() {
    want "ranks started" start_sleepers 4 60 -v || { kill $mpid; return; }
    victim=$(sed -n 's/^rank 2 pid \([0-9]*\) sleeping/\1/p' "$out")
    t1=$(now)
    kill -9 "$victim"
    wait_mpiexec
    want "exit 137" [ $rc = 137 ] || return
    want "names rank 2 and SIGKILL" has "$err" "rank 2 .*signal 9 (SIGKILL)" || return
    want "no rank left" pids_gone || return
    want "ended within 0.5 s" lt "$secs" 0.5 || return
    ok "$secs s from kill -9 to mpiexec's exit"
}

t_sigint() {
    want "ranks started" start_sleepers 4 60 || { kill $mpid; return; }
    t1=$(now)
    kill -INT $mpid
    wait_mpiexec
    want "exit 130" [ $rc = 130 ] || return
    want "reported" has "$err" "received SIGINT" || return
    want "no rank left" pids_gone || return
    ok "$secs s from SIGINT to exit"
}

t_sigterm() {
    want "ranks started" start_sleepers 3 60 || { kill $mpid; return; }
    t1=$(now)
    kill -TERM $mpid
    wait_mpiexec
    want "exit 143" [ $rc = 143 ] && want "no rank left" pids_gone && ok "$secs s"
}

t_mpiexec_killed() {   # kill -9 of mpiexec itself: the ranks must not outlive it
    local i
    mkdir -p "$work/killed"      # its tmpdir cannot be removed by a killed mpiexec
    TMPDIR=$work/killed want "ranks started" start_sleepers 3 60 || { kill $mpid; return; }
    kill -9 $mpid
    wait $mpid 2>/dev/null
    for i in $(seq 50); do pids_gone && break; sleep 0.1; done
    want "no rank left" pids_gone && ok
}

t_timeout() {
    run_mpiexec 30 -n 3 --timeout 1 "$CLIENT" sleep 60
    want "exit 124" [ $rc = 124 ] || return
    want "reported with running ranks" has "$err" "timeout after 1 s.*still running: 0,1,2" || return
    want "no rank left" pids_gone || return
    want "about 1 s" lt "$secs" 3 || return
    ok "$secs s"
}

t_stdin() {
    seq 1 20000 >"$work/in"
    timeout $((30 * scale)) "$MPIEXEC" -n 3 "$CLIENT" stdin <"$work/in" >"$out" 2>"$err"
    rc=$?
    want "exit 0 (others read nothing)" [ $rc = 0 ] && want "rank 0 got all stdin" cmp -s "$work/in" "$out" && ok
}

t_env() {
    FOO=outer run_mpiexec 30 -n 2 -x FOO -x BAR=2 --env BAZ=3 sh -c 'echo "$FOO $BAR $BAZ $PMIX_RANK"'
    want "exit 0" [ $rc = 0 ] || return
    want "rank 0 env" has "$out" "^outer 2 3 0$" && want "rank 1 env" has "$out" "^outer 2 3 1$" && ok
}

t_tag_output() {
    run_mpiexec 30 -n 3 --tag-output "$CLIENT" print 50
    want "exit 0" [ $rc = 0 ] || return
    want "150 tagged lines" [ "$(grep -cE '^\[([0-2])\] line [0-9]+ of rank \1$' "$out")" = 150 ] && ok
}

t_output_before_crash() {
    run_mpiexec 30 -n 2 sh -c 'seq 1 100000; echo last-err >&2; kill -SEGV $$'
    want "exit 139" [ $rc = 139 ] || return
    want "all stdout kept" [ "$(grep -c . "$out")" -ge 100000 ] || return
    want "stderr kept" has "$err" "last-err" || return
    # printf without fflush: line-buffered since the rank's stdout is a pty
    ASAN_OPTIONS=handle_segv=0 run_mpiexec 30 -n 3 "$CLIENT" crashprint 1
    want "exit 139" [ $rc = 139 ] || return
    want "unflushed printf kept" has "$out" "rank 1 printed this unflushed line" && ok
}

t_script_and_wrapper() {
    printf '#!/bin/sh\nexec "$@"\n' >"$work/wrap.sh"
    chmod +x "$work/wrap.sh"
    run_mpiexec 60 -n 3 "$work/wrap.sh" env "$CLIENT" info
    want "script wrapper" [ $rc = 0 ] || return
    want "3 OK" [ "$(grep -c ' OK$' "$out")" = 3 ] || return
    if command -v valgrind >/dev/null && [ $asan = 0 ]; then
        run_mpiexec 300 -n 2 valgrind -q --error-exitcode=99 --leak-check=full \
            --errors-for-leak-kinds=definite --suppressions="$here/../../runtime/pmix.supp" \
            "$CLIENT" info
        want "under valgrind" [ $rc = 0 ] || return
    fi
    ok
}

t_bind() {
    local ncpu
    ncpu=$(nproc)
    run_mpiexec 30 -n 1 --bind-to core sh -c 'grep Cpus_allowed_list /proc/self/status'
    want "bound" [ $rc = 0 ] || return
    [ "$ncpu" -gt 1 ] && { want "one core" has "$out" "list:[[:space:]]*[0-9]*$" || return; }
    run_mpiexec 30 -n $((ncpu + 1)) sh -c 'grep Cpus_allowed_list /proc/self/status'
    want "oversubscribed runs" [ $rc = 0 ] || return
    want "oversubscribed: unbound" [ "$(sort -u "$out" | wc -l)" = 1 ] || return
    run_mpiexec 30 -n 2 --bind-to none sh -c 'grep Cpus_allowed_list /proc/self/status'
    want "--bind-to none" [ "$(sort -u "$out" | wc -l)" = 1 ] && ok
}

t_cli() {
    run_mpiexec 10 --help
    want "--help" [ $rc = 0 ] && want "usage text" has "$out" "Usage: mpiexec" || return
    run_mpiexec 10 --version
    want "--version" [ $rc = 0 ] && want "version text" has "$out" "mpiexec (ucmpi)" || return
    run_mpiexec 10 --no-such-option "$CLIENT"
    want "bad option: exit 2" [ $rc = 2 ] || return
    run_mpiexec 10 -n 2 /no/such/program
    want "missing program: exit 127" [ $rc = 127 ] && want "says so" has "$err" "cannot run" && ok
}

t_tmpdir() {
    mkdir -p "$work/tmp"
    TMPDIR=$work/tmp run_mpiexec 30 -n 2 sh -c 'stat -c %a "$PMIX_SERVER_TMPDIR"'
    want "exit 0" [ $rc = 0 ] || return
    want "server tmpdir is 0700" has "$out" "^700$" || return
    want "removed at the end" [ -z "$(ls -A "$work/tmp")" ] || return
    TMPDIR=$work/tmp run_mpiexec 30 -n 2 "$CLIENT" segv 0
    want "removed after a crash" [ -z "$(ls -A "$work/tmp")" ] && ok
}

t_launch_speed() {
    run_mpiexec 60 -n 16 "$CLIENT" info 1
    want "16 ranks ok" [ $rc = 0 ] || return
    want "16 ranks in < 3 s" lt "$secs" 3 && ok "16 oversubscribed ranks in $secs s"
}

# real MPI programs (MPI_Init over this launcher, UCX wire-up)
# --timeout names what each rank was doing: the MPI call it blocks in, or
# that it computes, or how it ended.
t_timeout_calls() {
    [ -x "$MPIJOB" ] || { ok "skipped: no $MPIJOB"; return; }
    run_mpiexec 60 -n 8 --timeout $((6 * scale)) "$MPIJOB" stuck   # all ranks up, even on a busy machine
    want "exit 124" [ $rc = 124 ] || return
    want "all 8 got stuck" [ "$(grep -c stuck "$out")" = 8 ] || return
    want "rank 0 in MPI_Recv" has "$err" "^mpiexec: rank 0: in MPI_Recv$" || return
    want "rank 1 in MPI_Barrier" has "$err" "^mpiexec: rank 1: in MPI_Barrier$" || return
    want "rank 2 computing" has "$err" "^mpiexec: rank 2: not in an MPI call$" || return
    want "rank 3 in MPI_Wait" has "$err" "^mpiexec: rank 3: in MPI_Wait$" || return
    want "rank 4 in MPI_Probe" has "$err" "^mpiexec: rank 4: in MPI_Probe$" || return
    want "ranks 5-7 in MPI_Barrier" has "$err" "^mpiexec: ranks 5-7: in MPI_Barrier$" || return
    want "no rank left" pids_gone || return
    # before MPI_Init, and after an exit
    run_mpiexec 30 -n 3 --timeout 1 sh -c '[ "$PMIX_RANK" = 0 ] && exit 0; exec sleep 60'
    want "exit 124 (no MPI)" [ $rc = 124 ] || return
    want "rank 0 exited 0" has "$err" "^mpiexec: rank 0: exited 0$" || return
    want "ranks 1-2 before MPI_Init" has "$err" "ranks 1-2: not in an MPI call (MPI_Init not reached)" ||
        return
    # waiting in MPI_Init's fence for a rank that never calls it
    run_mpiexec 60 -n 3 --timeout $((4 * scale)) sh -c \
        '[ "$PMIX_RANK" = 0 ] && exec sleep 60; exec "$0" ok' "$MPIJOB"
    want "exit 124 (in MPI_Init)" [ $rc = 124 ] || return
    want "ranks 1-2 in MPI_Init" has "$err" "^mpiexec: ranks 1-2: in MPI_Init$" || return
    ok
}

t_mpi_ring() {
    local times=""
    [ -x "$MPIJOB" ] || { ok "skipped: no $MPIJOB"; return; }
    for n in 1 2 3 4 8 16; do
        run_mpiexec 120 -n $n "$MPIJOB" ok
        want "ring n=$n" [ $rc = 0 ] && want "ring n=$n OK" has "$out" "ring of $n ranks: token $n OK" ||
            return
        times="$times n=$n:${secs:0:4}s"
    done
    ok "$times"
}

t_mpi_failures() {
    local m report=""
    [ -x "$MPIJOB" ] || { ok "skipped: no $MPIJOB"; return; }
    for m in "abort 2 7:7:rank 2 aborted the job with code 7" \
             "segv 1:139:rank 1 .*SIGSEGV" \
             "exit 3 5:5:rank 3 .*exited with code 5 before finalizing" \
             "exit 1 0:1:rank 1 .*without finalizing"; do
        # exiting without MPI_Finalize leaks by design: no leak check here
        ASAN_OPTIONS=handle_segv=0:detect_leaks=0 run_mpiexec 60 -v -n 4 "$MPIJOB" ${m%%:*}
        m=${m#*:}
        want "${m#*:}: exit ${m%%:*}" [ $rc = "${m%%:*}" ] || return
        want "reported: ${m#*:}" has "$err" "${m#*:}" || return
        report="$report ${m%%:*}:$(ended)s"
    done
    ok "ended after the failure in:$report"
}

t_dpm_two_jobs() {   # MPI_Comm_accept in one mpiexec job, MPI_Comm_connect in another
    local job=${MPIJOB%/*}/dpm_job pid srv cli n m svc
    [ -x "$job" ] || { ok "skipped: no $job"; return; }
    for nm in 1:1 2:3 3:2:name; do
        n=${nm%%:*} m=${nm#*:} svc=
        [ "${m#*:}" = name ] && svc=ucmpi-launcher-test-$$ m=${m%:*}
        rm -f "$work/port"
        DPM_SERVICE=$svc timeout -k 2 $((120 * scale)) "$MPIEXEC" -n $n "$job" server "$work/port" \
            >"$work/srv.out" 2>"$work/srv.err" </dev/null &
        pid=$!
        DPM_SERVICE=$svc run_mpiexec 120 -n $m "$job" client "$work/port"
        cli=$rc
        wait $pid
        srv=$?
        cat "$work/srv.out" >>"$out"; cat "$work/srv.err" >>"$err"
        want "$n+$m: client exit 0" [ $cli = 0 ] || return
        want "$n+$m: server exit 0" [ $srv = 0 ] || return
        want "$n+$m: server OK" has "$out" "dpm server of $n ranks: remote $m OK" || return
        want "$n+$m: client OK" has "$out" "dpm client of $m ranks: remote $n OK" || return
    done
    ok
}

t_dpm_nameserver() {   # names through ucmpi_nameserver: one job, two jobs, no launcher
    local job=${MPIJOB%/*}/dpm_job nsd=${MPIEXEC%/*}/ucmpi_nameserver
    local pub=$PWD/test/mpi/comm/dpm_namepub ns pid srv addr i
    [ -x "$job" ] && [ -x "$pub" ] || { ok "skipped: no $job or $pub"; return; }
    "$nsd" --bind 127.0.0.1 --address-file "$work/ns" >"$work/nsd.out" 2>&1 &
    ns=$!
    for i in $(seq 100); do [ -f "$work/ns" ] && break; sleep 0.1; done
    addr=$(cat "$work/ns" 2>/dev/null)
    want "the name server is up" [ -n "$addr" ] || { kill $ns; return; }
    # publish, duplicate, lookup, unknown name (MPI_ERR_NAME), unpublish;
    # the machine's name directory stays unused
    UCMPI_NAME_DIR=$work/unused run_mpiexec 60 -n 3 --nameserver "$addr" "$pub"
    want "namepub through the server" [ $rc = 0 ] || { kill $ns; return; }
    want "no name file" [ ! -e "$work/unused" ] || { kill $ns; return; }
    # no launcher (a process started alone asks the server itself)
    UCMPI_NAMESERVER=$addr UCMPI_NAME_DIR=$work/unused timeout $((60 * scale)) "$pub" \
        >"$out" 2>"$err" </dev/null
    rc=$?
    want "namepub of a process started alone" [ $rc = 0 ] || { kill $ns; return; }
    # two jobs with different name directories meet by name
    rm -f "$work/port"
    DPM_SERVICE=ucmpi-ns-test-$$ UCMPI_NAME_DIR=$work/na timeout -k 2 $((120 * scale)) \
        "$MPIEXEC" -n 2 --nameserver "$addr" "$job" server "$work/port" \
        >"$work/srv.out" 2>"$work/srv.err" </dev/null &
    pid=$!
    DPM_SERVICE=ucmpi-ns-test-$$ UCMPI_NAME_DIR=$work/nb UCMPI_NAMESERVER=$addr \
        run_mpiexec 120 -n 3 "$job" client "$work/port"
    wait $pid
    srv=$?
    kill $ns
    cat "$work/srv.out" >>"$out"; cat "$work/srv.err" >>"$err"
    want "client exit 0" [ $rc = 0 ] && want "server exit 0" [ $srv = 0 ] || return
    want "met by name" has "$out" "dpm client of 3 ranks: remote 2 OK" || return
    ok
}

t_dpm_spawn_crash() {   # a spawned process crashes: the parent sees it, mpiexec reports it
    local job=$PWD/test/mpi/comm/dpm_spawn
    [ -x "$job" ] || { ok "skipped: no $job"; return; }
    ASAN_OPTIONS=detect_leaks=0 run_mpiexec 120 -n 2 -x DPM_SPAWN_MODE=crash "$job"
    want "exit code not 0" [ $rc != 0 ] || return
    want "parent saw the crash" has "$out" "crash of a spawned process detected" || return
    want "reported" has "$err" "spawned job ucmpi.[0-9]* ended with code" || return
    ok
}

t_dpm_spawn_crash_fatal() {   # the same under MPI_ERRORS_ARE_FATAL: the parent's error ends the job
    local job=$PWD/test/mpi/comm/dpm_spawn
    [ -x "$job" ] || { ok "skipped: no $job"; return; }
    ASAN_OPTIONS=detect_leaks=0 run_mpiexec 120 -n 2 -x DPM_SPAWN_MODE=crashfatal "$job"
    want "exit code not 0" [ $rc != 0 ] || return
    want "not a timeout" [ $rc != 124 ] || return
    want "the parent's receive failed" has "$err" "MPI_Recv" || return
    want "the job did not go on" hasnt "$out" "the job went on" || return
    ok
}

t_dpm_spawn_survive() {   # --disable-auto-cleanup reaches the spawned job
    local job=$PWD/test/mpi/comm/dpm_spawn
    [ -x "$job" ] || { ok "skipped: no $job"; return; }
    ASAN_OPTIONS=detect_leaks=0 run_mpiexec 120 --disable-auto-cleanup -n 2 \
        -x DPM_SPAWN_MODE=survive "$job"
    want "child 0 outlived child 1" has "$out" "child 0 survived its sibling's crash" || return
    want "exit code of the spawned job (3)" [ $rc = 3 ] || return
    want "reported" has "$err" "spawned job ucmpi.[0-9]* ended with code 3" || return
    ok
}

t_dpm_spawn_timeout() {   # --timeout reaches the spawned job: it reports its own blocked calls
    local job=$PWD/test/mpi/comm/dpm_spawn
    [ -x "$job" ] || { ok "skipped: no $job"; return; }
    ASAN_OPTIONS=detect_leaks=0 run_mpiexec 120 --timeout $((10 * scale)) -n 2 \
        -x DPM_SPAWN_MODE=hang "$job"
    want "exit 124" [ $rc = 124 ] || return
    want "the parents' report" has "$err" "in MPI_Barrier" || return
    want "the spawned job's report" has "$err" "in MPI_Probe" || return
    ok
}

t_dpm_reconnect() {   # one server job accepts three client jobs in turn, each disconnecting
    local job=${MPIJOB%/*}/dpm_job pid m n=0
    [ -x "$job" ] || { ok "skipped: no $job"; return; }
    rm -f "$work/port"
    # 3+1+2 clients but room for 4: disconnected ones must be let go
    UCMPI_DPM_PEERS=4 timeout -k 2 $((180 * scale)) "$MPIEXEC" -n 2 "$job" server "$work/port" 3 \
        >"$work/srv.out" 2>"$work/srv.err" </dev/null &
    pid=$!
    for m in 3 1 2; do
        run_mpiexec 120 -n $m "$job" client "$work/port"
        want "client of $m: exit 0" [ $rc = 0 ] || { kill $pid; return; }
        want "client of $m OK" has "$out" "dpm client of $m ranks: remote 2 OK" ||
            { kill $pid; return; }
    done
    wait $pid
    rc=$?
    cat "$work/srv.out" >"$out"; cat "$work/srv.err" >"$err"
    want "server exit 0" [ $rc = 0 ] || return
    for m in 3 1 2; do
        n=$((n + 1))
        want "server's round $n OK" has "$out" "dpm server of 2 ranks: remote $m OK" || return
    done
    ok
}

t_mpmd() {   # mpiexec -n 1 a : -n 2 b, MPI_APPNUM 0 and 1
    local job=$PWD/test/mpi/comm/dpm_spawn
    [ -x "$job" ] || { ok "skipped: no $job"; return; }
    run_mpiexec 60 -n 1 "$job" appnum 0 : -n 2 "$job" appnum 1
    want "exit 0" [ $rc = 0 ] && want "No Errors" has "$out" "No Errors" || return
    run_mpiexec 60 -n 1 "$job" appnum 0 :
    want "usage error for a trailing ':'" [ $rc = 2 ] || return
    ok
}

tests="dpm_two_jobs dpm_reconnect dpm_nameserver dpm_spawn_crash dpm_spawn_crash_fatal dpm_spawn_survive dpm_spawn_timeout mpmd mpi_ring mpi_failures info node_sources modex_rounds singleton refuse_launcher abort segv exit_code exit_zero_early exit_before_init
       exit_after_finalize kill9 sigint sigterm mpiexec_killed timeout timeout_calls stdin env tag_output
       output_before_crash script_and_wrapper bind cli tmpdir launch_speed shm_cleanup"
for t in $tests; do
    [[ $t =~ $filter ]] || continue
    name=$t
    "t_$t"
done
[ $fail -gt 0 ] && { echo "Failed:"; printf '  %s\n' "${failed[@]}"; }
echo "launcher: $pass passed, $fail failed"
[ $fail -eq 0 ]
