#!/usr/bin/env bash
# Fault tests of the launcher: a rank that aborts, segfaults, exits without
# MPI_Finalize or is killed with SIGKILL, SIGINT/SIGTERM to mpiexec, and
# --timeout on a hung job.  Each must end the whole job quickly, with the
# right exit code, one line naming the rank and the cause, the output written
# before the fault, and no surviving process.  Run from the build directory.
#
# Environment:
#   MPIEXEC        launcher (default: ./runtime/mpiexec)
#   FAULT_PROG     test program (default: ./test/fault/fault_prog)
#   FAULT_NPS      process counts (default: "4 8")
#   FAULT_GOAL     seconds the job should take to end (default 0.5; slower
#                  runs are reported as SLOW but pass)
#   FAULT_BOUND    seconds after which a run fails (default 5: the machine
#                  is shared, the goal is what the numbers are checked against)
#   FAULT_FILTER   regex over case names (abort segv exit kill9 sigint sigterm timeout)
set -u
mpiexec=${MPIEXEC:-$PWD/runtime/mpiexec}
prog=${FAULT_PROG:-$PWD/test/fault/fault_prog}
nps=${FAULT_NPS:-4 8}
goal=${FAULT_GOAL:-0.5}
bound=${FAULT_BOUND:-5}
filter=${FAULT_FILTER:-.}
pass=0 fail=0 slow=0 xfail=0 failed=() times=()

for f in "$mpiexec" "$prog"; do
    [ -x "$f" ] || { echo "fault: $f not built (run from the build dir after make check)"; \
                     echo "fault: 0 passed, 1 failed"; exit 1; }
done

work=$(mktemp -d /tmp/ucmpi-fault.XXXXXX) || exit 1
job_pid=
cleanup() {   # never leave a job behind, even when interrupted
    [ -n "$job_pid" ] && kill_session "$job_pid"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Processes of session SID that are still running (zombies count as gone).
session_procs() {
    ps -eo pid=,sid=,stat= | awk -v s="$1" '$2 == s && $3 !~ /^Z/ { print $1 }'
}

kill_session() {
    local p
    for p in $(session_procs "$1"); do kill -KILL "$p" 2>/dev/null; done
}

alive() { [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

# Starts mpiexec in a session of its own (so that the job's processes can be
# found by session id, never by name).  Sets job_pid and dir.
start_job() {   # np args...
    local np=$1; shift
    dir=$work/run.$RANDOM
    mkdir "$dir"
    # a background job of a script starts with SIGINT ignored: undo that
    FAULT_DIR=$dir env --default-signal=INT,QUIT setsid "$mpiexec" -n "$np" "$@" >"$dir/out" 2>"$dir/err" </dev/null &
    job_pid=$!
}

wait_pids() {   # np: until all ranks have written their pid (max 30 s)
    local i
    for i in $(seq 600); do
        [ "$(ls "$dir" | grep -c '^pid\.')" -ge "$1" ] && return 0
        alive "$job_pid" || return 1
        sleep 0.05
    done
    return 1
}

# Waits for the job, at most `limit` seconds (then kills its session); sets
# rc (exit code or "timeout") and t_end (taken as soon as mpiexec is gone).
finish_job() {
    local limit=$1 wd done_pid st
    sleep "$limit" &
    wd=$!
    wait -n -p done_pid "$job_pid" "$wd"; st=$?
    t_end=$EPOCHREALTIME
    if [ "$done_pid" = "$job_pid" ]; then
        rc=$st
        kill "$wd" 2>/dev/null; wait "$wd" 2>/dev/null
    else
        rc=timeout
        kill_session "$job_pid"
        wait "$job_pid" 2>/dev/null
    fi
}

report() {   # name ok reason [seconds]
    local name=$1 ok=$2 why=$3 secs=${4:-}
    if [ "$ok" = 1 ]; then
        pass=$((pass + 1))
        if [ -n "$secs" ] && gt "$secs" "$goal"; then
            slow=$((slow + 1)); echo "PASS (SLOW, goal ${goal}s): $name ${secs}s"
        else
            echo "PASS: $name${secs:+ ${secs}s}"
        fi
    else
        fail=$((fail + 1)); failed+=("$name"); echo "FAIL: $name: $why"
        sed 's/^/    out| /' "$dir/out" | tail -n 8
        sed 's/^/    err| /' "$dir/err" | tail -n 8
    fi
    [ -n "$secs" ] && times+=("$name $secs")
}

# Checks common to every case; prints why it failed, nothing when fine.
check_job() {   # np want_rc rank_regex cause_regex want_output_regex
    local np=$1 want=$2 rankre=$3 causere=$4 outre=$5 p left=()
    [ "$rc" = "$want" ] || { echo "exit code $rc, want $want"; return; }
    for p in $(cat "$dir"/pid.* 2>/dev/null) $(session_procs "$job_pid"); do
        alive "$p" && left+=("$p")
    done
    if [ ${#left[@]} -gt 0 ]; then
        sleep 1
        for p in "${left[@]}"; do alive "$p" && { kill -KILL "$p"; kill_session "$job_pid"; \
            echo "processes left running after mpiexec ended: ${left[*]}"; return; }; done
        echo "processes still exiting when mpiexec ended: ${left[*]} (gone 1 s later)"; return
    fi
    [ "$(ls "$dir" | grep -c '^pid\.')" -eq "$np" ] || { echo "not all $np ranks started"; return; }
    [ -z "$rankre" ] || grep -Eqi "$rankre" "$dir/err" ||
        { echo "no line on stderr naming the rank (/$rankre/)"; return; }
    [ -z "$causere" ] || grep -Eqi "$causere" "$dir/err" ||
        { echo "no line on stderr naming the cause (/$causere/)"; return; }
    [ -z "$outre" ] || grep -Eq "$outre" "$dir/out" ||
        { echo "output written before the fault is missing (/$outre/)"; return; }
}

# A rank misbehaves on its own; the clock starts when it writes FAULT_DIR/fault.
case_self() {   # name np want_rc cause_regex prog-args...
    local name=$1 np=$2 want=$3 cause=$4 why secs; shift 4
    start_job "$np" "$prog" "$@"
    finish_job $((bound + 30))
    if [ -f "$dir/fault" ]; then
        secs=$(elapsed "$(cat "$dir/fault")" "$t_end")
    else
        secs=
    fi
    why=$(check_job "$np" "$want" "rank[^0-9]*1([^0-9]|$)" "$cause" "rank 1: .* now")
    [ -z "$why" ] && [ -z "$secs" ] && why="the faulting rank never got to its fault"
    [ -z "$why" ] && gt "$secs" "$bound" && why="took ${secs}s (bound ${bound}s)"
    job_pid=
    report "$name np=$np" "$([ -z "$why" ] && echo 1 || echo 0)" "$why" "$secs"
}

# The harness does something to a running job; the clock starts then.
case_external() {   # name np want_rc cause_regex action(kill9|sigint|sigterm)
    local name=$1 np=$2 want=$3 cause=$4 action=$5 why secs t0 victim rankre=
    start_job "$np" "$prog" hang
    if ! wait_pids "$np"; then
        finish_job 5
        job_pid=
        report "$name np=$np" 0 "ranks did not start (exit $rc)"
        return
    fi
    sleep 0.2   # all ranks inside MPI_Recv
    t0=$EPOCHREALTIME
    case $action in
    kill9) victim=$(cat "$dir/pid.1"); kill -KILL "$victim"; rankre="rank[^0-9]*1([^0-9]|$)" ;;
    sigint) kill -INT "$job_pid" ;;
    sigterm) kill -TERM "$job_pid" ;;
    esac
    finish_job $((bound + 30))
    secs=$(elapsed "$t0" "$t_end")
    why=$(check_job "$np" "$want" "$rankre" "$cause" "rank 0 of $np: up")
    [ -z "$why" ] && gt "$secs" "$bound" && why="took ${secs}s (bound ${bound}s)"
    job_pid=
    report "$name np=$np" "$([ -z "$why" ] && echo 1 || echo 0)" "$why" "$secs"
}

case_timeout() {   # np: --timeout 1 on a hung job: exit 124, names the ranks' MPI call
    local np=$1 why secs t0
    t0=$EPOCHREALTIME
    start_job "$np" --timeout 1 "$prog" hang
    finish_job $((bound + 30))
    secs=$(elapsed "$t0" "$t_end")
    secs=$(awk -v s="$secs" 'BEGIN { printf "%.3f", s - 1 }')   # after the deadline
    why=$(check_job "$np" 124 "" "still running: 0,1" "rank 0 of $np: up")
    [ -z "$why" ] && gt "$secs" "$((bound + 1))" && why="took ${secs}s (bound $((bound + 1))s)"
    job_pid=
    report "timeout np=$np" "$([ -z "$why" ] && echo 1 || echo 0)" "$why" "$secs"
    # issue 7 part 3 also wants the MPI call each rank was in: not there yet
    if [ -z "$why" ] && ! grep -q MPI_Recv "$dir/err"; then
        xfail=$((xfail + 1))
        echo "XFAIL: timeout np=$np: the report does not name the MPI call (MPI_Recv) the ranks are in"
    fi
}

want() { [[ "$1" =~ $filter ]]; }

for np in $nps; do
    want abort && case_self abort "$np" 7 "abort" abort 1 7
    want segv && case_self segv "$np" 139 "SEGV|signal 11|segmentation" segv 1
    want exit && case_self exit "$np" 3 "final|exit" exit 1 3
    want kill9 && case_external kill9 "$np" 137 "KILL|signal 9|killed" kill9
    want sigint && case_external sigint "$np" 130 "" sigint
    want sigterm && case_external sigterm "$np" 143 "" sigterm
    want timeout && case_timeout "$np"
done

echo "fault times (s, from the fault (timeout: the deadline) to the end of mpiexec; goal $goal):"
printf '  %s\n' "${times[@]}"
[ $fail -gt 0 ] && { echo "Failed:"; printf '  %s\n' "${failed[@]}"; }
[ $slow -gt 0 ] && echo "fault: $slow run(s) slower than the ${goal}s goal"
[ $xfail -gt 0 ] && echo "fault: $xfail known gap(s) (XFAIL), not counted as failures"
echo "fault: $pass passed, $fail failed"
[ $fail -eq 0 ]
