#!/usr/bin/env bash
# The network path on one machine: a subset of test/mpi and the examples run
# through mpiexec with UCX restricted to TCP (UCX_TLS=tcp,self), the
# transport ranks on different nodes use.  Run from the build directory.
#
# Environment:
#   TCP_TEST_FILTER   regex of test/mpi programs (default: a p2p/collective subset)
#   MPIEXEC           launcher (default: ./runtime/mpiexec)
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
filter=${TCP_TEST_FILTER:-^(sendrecv|p2p_basic|pingpong|ssend|probe|isend_irecv|large_msg|barrier|bcast|allreduce|alltoallv?|reduce_scatter)$}
mpiexec=${MPIEXEC:-$PWD/runtime/mpiexec}
export UCX_TLS=tcp,self
pass=0 fail=0 failed=() t_start=$EPOCHREALTIME
logs=$PWD/test-logs/tcp
mkdir -p "$logs"

result() {   # ok name log
    if [ "$1" = 1 ]; then pass=$((pass + 1)); echo "PASS: $2"
    else fail=$((fail + 1)); failed+=("$2"); echo "FAIL: $2"; sed 's/^/    | /' "$3" | tail -n 15; fi
}

[ -x "$mpiexec" ] || { echo "tcp: no $mpiexec (run from the build dir)"; echo "tcp: 0 passed, 1 failed"; exit 1; }

for ex in hello ring; do
    prog=$PWD/examples/$ex
    [ -x "$prog" ] || { echo "SKIP: examples/$ex not built"; continue; }
    for np in 2 4; do
        log=$logs/$ex.$np
        timeout -k 5 60 "$mpiexec" -n "$np" --timeout 50 "$prog" >"$log" 2>&1 </dev/null
        result $((! $?)) "examples/$ex -n $np (UCX_TLS=$UCX_TLS)" "$log"
    done
done

if ls "$src"/test/mpi/*.list >/dev/null 2>&1; then
    log=$logs/mpi
    MPIEXEC=$mpiexec TEST_FILTER="$filter" TEST_LOGDIR=$logs/mpi.d "$src/test/mpi/runtests" >"$log" 2>&1
    grep -E '^(PASS|FAIL)' "$log" | sed 's/^/    /'
    n_pass=$(sed -n 's/^mpi: \([0-9]*\) passed.*/\1/p' "$log")
    n_fail=$(sed -n 's/^mpi: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$log")
    if [ -z "$n_pass" ]; then
        result 0 "test/mpi with UCX_TLS=$UCX_TLS (runtests gave no summary)" "$log"
    else
        pass=$((pass + n_pass)); fail=$((fail + n_fail))
        [ "$n_fail" -gt 0 ] && { failed+=("test/mpi: $n_fail run(s)"); grep -A12 '^FAIL' "$log" | head -n 40; }
        [ "$((n_pass + n_fail))" -eq 0 ] && echo "SKIP: no test/mpi program matches /$filter/"
    fi
else
    echo "SKIP: no test/mpi lists yet"
fi

[ $fail -gt 0 ] && { echo "Failed:"; printf '  %s\n' "${failed[@]}"; }
awk -v a="$t_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "tcp: took %.1f s\n", b - a }'
echo "tcp: $pass passed, $fail failed"
[ $fail -eq 0 ]
