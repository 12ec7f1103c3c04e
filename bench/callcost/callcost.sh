#!/usr/bin/env bash
# Instructions per MPI call (callgrind), ucmpi beside Debian's Open MPI (pml
# ucx) and MPICH: unlike timings, the counts do not move with this machine's
# slow periods, so a change to a fast path can be judged in one run.
# Usage: bench/callcost/callcost.sh --prefix DIR [--base DIR] [--mpis LIST]
#        [--kinds test,testany,iprobe,isend,send] [--outdir DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
prefix="" base="" mpis="ucmpi,openmpi,mpich" kinds="test,testany,iprobe,isend,send"
outdir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=$2; shift ;;
        --base) base=$2; shift ;;
        --mpis) mpis=$2; shift ;;
        --kinds) kinds=$2; shift ;;
        --outdir) outdir=$2; shift ;;
        *) echo "callcost.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
command -v valgrind >/dev/null || { echo "callcost.sh: needs valgrind" >&2; exit 2; }
[ -n "$outdir" ] || outdir=$(mktemp -d /tmp/callcost.XXXXXX)
mkdir -p "$outdir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
declare -A CC RUN
[ -n "$prefix" ] && CC[ucmpi]=$prefix/bin/mpicc RUN[ucmpi]="$prefix/bin/mpiexec -n 1"
[ -n "$base" ] && CC[base]=$base/bin/mpicc RUN[base]="$base/bin/mpiexec -n 1" mpis="$mpis,base"
CC[openmpi]=mpicc.openmpi
RUN[openmpi]="mpiexec.openmpi --allow-run-as-root --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any -n 1"
CC[mpich]=mpicc.mpich RUN[mpich]="mpiexec.mpich -launcher fork -n 1"
N1=20000 N2=120000

# Total instructions of one run (callgrind's summary line), or nothing.
irefs() {
    local mpi=$1 n=$2 kind=$3
    # shellcheck disable=SC2086
    timeout 900 ${RUN[$mpi]} valgrind --tool=callgrind \
        --callgrind-out-file="$outdir/$mpi.$kind.$n.%p" \
        "$outdir/$mpi/call_cost" "$n" "$kind" 2>&1 |
        sed -n 's/.*I *refs: *//p' | tr -d , | head -1
}

declare -A COST
for mpi in ${mpis//,/ }; do
    mkdir -p "$outdir/$mpi"
    if ! command -v "${CC[$mpi]:-none}" >/dev/null ||
        ! "${CC[$mpi]}" -O2 -o "$outdir/$mpi/call_cost" "$here/call_cost.c" \
            >"$outdir/$mpi/build.log" 2>&1; then
        echo "callcost.sh: $mpi does not build (see $outdir/$mpi/build.log)" >&2
        continue
    fi
    for kind in ${kinds//,/ }; do
        a=$(irefs "$mpi" $N1 "$kind") b=$(irefs "$mpi" $N2 "$kind")
        if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ]; then
            COST[$mpi/$kind]=$(( (b - a) / (N2 - N1) ))
        fi
    done
done

ratio() { [ -n "${1:-}" ] && [ -n "${2:-}" ] && [ "$2" -gt 0 ] &&
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }' || echo n/a; }
printf "instructions per call (callgrind, %d - %d iterations)\n" $N2 $N1
printf "%-8s" kind
for mpi in ${mpis//,/ }; do printf " %8s" "$mpi"; done
for mpi in ${mpis//,/ }; do [ "$mpi" != ucmpi ] && printf " %8s" "/$mpi"; done
echo
for kind in ${kinds//,/ }; do
    printf "%-8s" "$kind"
    for mpi in ${mpis//,/ }; do printf " %8s" "${COST[$mpi/$kind]:-n/a}"; done
    for mpi in ${mpis//,/ }; do
        [ "$mpi" != ucmpi ] && printf " %8s" "$(ratio "${COST[ucmpi/$kind]:-}" "${COST[$mpi/$kind]:-}")"
    done
    echo
done
echo "(raw callgrind files in $outdir)"
