#!/usr/bin/env bash
# Launch time of `mpiexec -n N hello` for ucmpi, Open MPI (mpirun) and MPICH
# (mpiexec.hydra): median wall time of several runs per N, one table with
# ratios (> 1: ucmpi is faster).  Run from ucmpi's build directory.
#
#   bench/launch.sh [N...]            default N: 1 4 16 64
# Environment:
#   LAUNCH_RUNS     timed runs per (launcher, N), default 5 (+1 warm-up)
#   UCMPI_BUILD     ucmpi build directory (default: $BUILDDIR, else .)
#   LAUNCH_SRC      hello source (default: examples/hello.c, else a built-in one)
# Installs openmpi-bin/libopenmpi-dev and mpich/libmpich-dev when missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${UCMPI_BUILD:-${BUILDDIR:-.}}" && pwd)
runs=${LAUNCH_RUNS:-5}
nps=${*:-1 4 16 64}

die() { echo "launch: $*" >&2; exit 1; }
[ -x "$build/runtime/mpiexec" ] || die "no $build/runtime/mpiexec: run from ucmpi's build dir"
[ -e "$build/lib/.libs/libucmpi.so" ] || die "no $build/lib/.libs/libucmpi.so"

need=()
command -v mpirun.openmpi >/dev/null && command -v mpicc.openmpi >/dev/null ||
    need+=(openmpi-bin libopenmpi-dev)
command -v mpiexec.hydra >/dev/null && command -v mpicc.mpich >/dev/null ||
    need+=(mpich libmpich-dev)
if [ ${#need[@]} -gt 0 ]; then
    echo "launch: installing ${need[*]}" >&2
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"; } \
        >/dev/null || die "could not install ${need[*]}"
fi

work=$(mktemp -d /tmp/ucmpi-launch.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT

hello=${LAUNCH_SRC:-$src/examples/hello.c}
if [ ! -f "$hello" ]; then
    hello=$work/hello.c
    cat >"$hello" <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("hello from %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
EOF
fi

# The same source built against each implementation.
cc -O2 -I"$src/include" "$hello" -o "$work/hello_ucmpi" -L"$build/lib/.libs" \
    -Wl,-rpath,"$build/lib/.libs" -lucmpi || die "building hello for ucmpi failed"
mpicc.openmpi -O2 "$hello" -o "$work/hello_ompi" || die "building hello for Open MPI failed"
mpicc.mpich -O2 "$hello" -o "$work/hello_mpich" || die "building hello for MPICH failed"

names=(ucmpi ompi mpich)
launch() {   # impl np
    case $1 in
    ucmpi) timeout 120 "$build/runtime/mpiexec" -n "$2" "$work/hello_ucmpi" ;;
    ompi) timeout 120 mpirun.openmpi --allow-run-as-root --oversubscribe -n "$2" \
              "$work/hello_ompi" ;;
    mpich) timeout 120 mpiexec.hydra -n "$2" "$work/hello_mpich" ;;
    esac
}

# One timed run; prints seconds, or FAIL when the job failed or lost lines.
time_one() {   # impl np
    local t0 t1 lines
    t0=$EPOCHREALTIME
    lines=$(launch "$1" "$2" 2>"$work/err" </dev/null | grep -c '^hello from')
    t1=$EPOCHREALTIME
    if [ "$lines" != "$2" ]; then
        echo "launch: $1 -n $2 printed $lines of $2 hello lines:" >&2
        tail -n 5 "$work/err" >&2
        echo FAIL
        return
    fi
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "FAIL"; exit }
    print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A samples failed
for np in $nps; do
    for impl in "${names[@]}"; do time_one "$impl" "$np" >/dev/null; done   # warm-up
    # interleave the launchers so that load changes hit all of them alike
    for r in $(seq "$runs"); do
        for impl in "${names[@]}"; do
            t=$(time_one "$impl" "$np")
            if [ "$t" = FAIL ]; then failed[$impl.$np]=1; else samples[$impl.$np]+=" $t"; fi
        done
    done
done

echo "Launch time of 'mpiexec -n N hello', median of $runs runs, seconds (wall, $(nproc) cores)"
echo "ratio = other / ucmpi: above 1 means ucmpi is faster"
printf '%5s %10s %10s %10s %11s %11s\n' N ucmpi openmpi mpich ompi/ucmpi mpich/ucmpi
status=0
for np in $nps; do
    declare -A med=()
    for impl in "${names[@]}"; do
        med[$impl]=$(echo "${samples[$impl.$np]:-}" | median)
        [ -n "${failed[$impl.$np]:-}" ] && med[$impl]=FAIL
    done
    [ "${med[ucmpi]}" = FAIL ] && status=1
    awk -v n="$np" -v u="${med[ucmpi]}" -v o="${med[ompi]}" -v m="${med[mpich]}" 'BEGIN {
        ro = (u == "FAIL" || o == "FAIL") ? "-" : sprintf("%.2f", o / u)
        rm = (u == "FAIL" || m == "FAIL") ? "-" : sprintf("%.2f", m / u)
        printf "%5d %10s %10s %10s %11s %11s\n", n, u, o, m, ro, rm }'
done
exit $status
