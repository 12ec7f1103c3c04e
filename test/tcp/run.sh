#!/usr/bin/env bash
# The network path on one machine: a subset of test/mpi and the examples run
# through mpiexec with UCX restricted to TCP (UCX_TLS=tcp,self), the
# transport ranks on different nodes use.  Run from the build directory (or set BUILDDIR).
#
# Environment:
#   TCP_TEST_LIST     test/mpi lines to run (default: test/slurm/subset.list)
#   MPIEXEC           launcher (default: ./runtime/mpiexec)
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
# the build directory: $BUILDDIR (scripts/test.sh sets it) or the current one
cd "${BUILDDIR:-.}" || { echo "cannot enter build directory ${BUILDDIR:-.}"; exit 1; }
subset=${TCP_TEST_LIST:-$here/../slurm/subset.list}
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

examples=("hello:2 4:" "ring:2 4:" "pingpong:2:4194304" "sgd_allreduce:4:"
          "moe_alltoallv:4:" "param_server:3:")
for spec in "${examples[@]}"; do
    IFS=: read -r ex ex_nps ex_args <<<"$spec"
    prog=$PWD/examples/$ex
    [ -x "$prog" ] || { echo "SKIP: examples/$ex not built"; continue; }
    for np in $ex_nps; do
        log=$logs/$ex.$np
        # shellcheck disable=SC2086
        timeout -k 5 60 "$mpiexec" -n "$np" --timeout 50 "$prog" $ex_args >"$log" 2>&1 </dev/null
        result $((! $?)) "examples/$ex -n $np (UCX_TLS=$UCX_TLS)" "$log"
    done
done

log=$logs/mpi
MPIEXEC=$mpiexec TEST_LOGDIR=$logs/mpi.d "$here/../slurm/run-subset.sh" "$subset" >"$log" 2>&1
grep -v '^subset: ' "$log" | sed 's/^/    /'
read -r p f k < <(sed -n 's/^subset: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped/\1 \2 \3/p' "$log")
if [ -z "$p" ]; then
    result 0 "test/mpi subset (no summary)" "$log"
else
    pass=$((pass + p)) fail=$((fail + f))
    [ "$f" -gt 0 ] && failed+=("test/mpi subset: $f run(s)")
    echo "test/mpi subset with UCX_TLS=$UCX_TLS: $p passed, $f failed, $k skipped"
fi

[ $fail -gt 0 ] && { echo "Failed:"; printf '  %s\n' "${failed[@]}"; }
awk -v a="$t_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "tcp: took %.1f s\n", b - a }'
echo "tcp: $pass passed, $fail failed"
[ $fail -eq 0 ]
