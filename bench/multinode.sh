#!/usr/bin/env bash
# Collectives and large-message latency across nodes: starts the test
# suite's private Slurm with N nodes, each in a network namespace of its own
# (test/slurm/slurm-local.sh start --nodes N, TCP over veth between them),
# and runs coll_bench (allreduce, bcast, alltoall) at N nodes x R ranks and
# p2p_bench's latency between two nodes, under ucmpi (srun --mpi=pmix), Open
# MPI (srun --mpi=pmix, pml ucx) and MPICH (srun --mpi=pmi2), the MPIs
# interleaved within each round (round r starts with the r-th).  Prints
# bench/compare.sh's tables (--tables) of ucmpi's ratio to each peer, the
# rank column reading NODESxRANKS_PER_NODE.  Must run as root (Slurm,
# namespaces).
#
# Usage: bench/multinode.sh [options]
#   --prefix DIR    ucmpi installed in DIR (default: the build tree)
#   --build DIR     ucmpi build tree (default: the current directory)
#   --nodes LIST    node counts (default "2 4")
#   --ppn LIST      ranks per node (default "1 2 4")
#   --rounds N      interleaved rounds (default 3)
#   --stat S        median, best or both (default both)
#   --mpis LIST     ucmpi,openmpi,mpich (default all)
#   --colls LIST    coll_bench -b list (default allreduce,bcast,alltoall)
#   --sizes MIN:MAX:STEP  coll_bench sweep (default 8:16M:8, i.e. 8 B,
#                   64 B, ..., 2 MiB, 16 MiB)
#   --budget S      seconds per size (default 0.2)
#   --p2p-size B    p2p latency size between two nodes (default 1M; "" off)
#   --timeout S     limit of one run (default 180)
#   --outdir DIR    keep builds, logs and results.txt here
#   --tables FILE   only print the tables of an earlier results.txt
# The UCX transports are tcp,self on eth0 (as test/netns): between
# namespaces of one host UCX would otherwise pick shared memory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/.." && pwd)
slurm=$srcdir/test/slurm/slurm-local.sh
prefix="" build="" nodes_l="2 4" ppn_l="1 2 4" rounds=3 stat=both
mpis="ucmpi,openmpi,mpich" colls="allreduce,bcast,alltoall" sizes="8:16M:8"
budget=0.2 p2p_size=1M run_timeout=180 outdir="" tables=""
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=$2; shift ;;
        --build) build=$2; shift ;;
        --nodes) nodes_l=$2; shift ;;
        --ppn) ppn_l=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --stat) stat=$2; shift ;;
        --mpis) mpis=$2; shift ;;
        --colls) colls=$2; shift ;;
        --sizes) sizes=$2; shift ;;
        --budget) budget=$2; shift ;;
        --p2p-size) p2p_size=$2; shift ;;
        --timeout) run_timeout=$2; shift ;;
        --outdir) outdir=$2; shift ;;
        --tables) tables=$2; shift ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "multinode.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ -n "$tables" ]; then
    exec "$here/compare.sh" --stat "$stat" --tables "$tables"
fi
[ "$(id -u)" = 0 ] || { echo "multinode.sh: needs root (Slurm, namespaces)" >&2; exit 2; }
log() { echo "multinode.sh: $*" >&2; }
outdir=${outdir:-$(mktemp -d /tmp/ucmpi-multinode.XXXXXX)}
mkdir -p "$outdir"
results=$outdir/results.txt
: >"$results"
IFS=: read -r smin smax sstep <<<"$sizes"

# ---- build coll_bench and p2p_bench with each MPI ----
declare -A CC LIBS BIN
if [ -n "$prefix" ]; then
    CC[ucmpi]="$prefix/bin/mpicc"
else
    build=$(cd "${build:-.}" && pwd)
    [ -e "$build/lib/libucmpi.la" ] || { echo "multinode.sh: no ucmpi build in $build (--build/--prefix)" >&2; exit 2; }
    bsrc=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile" 2>/dev/null)
    CC[ucmpi]="${CC:-cc} -I${bsrc:-$srcdir}/include"
    LIBS[ucmpi]="-L$build/lib/.libs -Wl,-rpath,$build/lib/.libs -lucmpi"
fi
CC[openmpi]=mpicc.openmpi
CC[mpich]=mpicc.mpich
for mpi in ${mpis//,/ }; do
    mkdir -p "$outdir/$mpi"
    for b in coll_bench p2p_bench; do
        # shellcheck disable=SC2086
        if command -v "${CC[$mpi]%% *}" >/dev/null &&
            ${CC[$mpi]} -O2 -I"$here" -o "$outdir/$mpi/$b" "$here/$b.c" \
                ${LIBS[$mpi]:-} >"$outdir/$mpi/$b.build.log" 2>&1; then
            BIN[$mpi/$b]=$outdir/$mpi/$b
        else
            log "$mpi: $b does not build: its column shows n/a"
        fi
    done
done

# how each MPI is started by srun (environment, then srun options)
launch() {   # mpi -> prints the srun --mpi plugin
    case "$1" in mpich) echo pmi2 ;; *) echo pmix ;; esac
}
export UCX_TLS=${UCX_TLS:-tcp,self} UCX_NET_DEVICES=${UCX_NET_DEVICES:-eth0}
export OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# run_one CLUSTER MPI BENCH N PPN ROUND ARGS...: appends result rows, the
# rank column as NxPPN
run_one() {
    local cl=$1 mpi=$2 b=$3 n=$4 ppn=$5 round=$6; shift 6
    local exe=${BIN[$mpi/$b]:-} out=$outdir/$mpi/$b.${n}x$ppn.r$round.log
    [ -n "$exe" ] || return 0
    log "round $round: $mpi $b ${n}x$ppn"
    timeout -k 10 "$run_timeout" "$cl/run" srun --quiet -N "$n" \
        -n $((n * ppn)) --ntasks-per-node="$ppn" --mpi="$(launch "$mpi")" \
        "$exe" "$@" >"$out" 2>&1 </dev/null ||
        log "$mpi $b ${n}x$ppn failed (exit $?, see $out)"
    awk -v m="$mpi" -v r="$round" -v np="${n}x$ppn" '$1 == "BENCH" && NF >= 7 {
        print m, $2, np, $4, $5, $6, $7, r }' "$out" >>"$results"
}

"$slurm" install || exit 1
t0=$(date +%s)
for n in $nodes_l; do
    cluster=$("$slurm" start --nodes "$n") || cluster=""
    [ -n "$cluster" ] || { log "cannot start $n Slurm nodes: skipped"; continue; }
    for r in $(seq 1 "$rounds"); do
        # round r starts with the r-th MPI
        set -- ${mpis//,/ }
        k=$(( (r - 1) % $# ))
        order=("${@:k+1}" "${@:1:k}")
        for ppn in $ppn_l; do
            for mpi in "${order[@]}"; do
                run_one "$cluster" "$mpi" coll_bench "$n" "$ppn" "$r" \
                    -b "$colls" -m "$smin" -M "$smax" -x "$sstep" -t "$budget"
            done
        done
        [ -n "$p2p_size" ] || continue
        for mpi in "${order[@]}"; do
            run_one "$cluster" "$mpi" p2p_bench 2 1 "$r" -b latency \
                -m "$p2p_size" -M "$p2p_size" -t "$budget"
        done
    done
    "$slurm" stop "$cluster"
done
log "took $(( $(date +%s) - t0 )) s; results in $results"
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
"$here/compare.sh" --stat "$stat" --tables "$results"
