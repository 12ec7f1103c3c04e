#!/usr/bin/env bash
# Builds every benchmark in bench/ against ucmpi, Debian's Open MPI and
# Debian's MPICH, runs them side by side (plus raw ucx_perftest tag latency
# and bandwidth, and the wall time of oversubscribed jobs), and prints one
# table per benchmark with ucmpi's ratio to each peer.  Each value is a
# benchmark's median; with --rounds N, the median over N interleaved rounds.
#
# Usage: bench/compare.sh [options]
#   --prefix DIR     ucmpi installed in DIR (DIR/bin/mpicc, DIR/bin/mpiexec)
#   --base DIR       another ucmpi install (e.g. main's) run alongside as
#                    "base", for A/B: tables add base and /base columns
#   --env "V=X ..."  environment of ucmpi's runs only (e.g. an A/B of one
#                    install: --base DIR --prefix DIR --env
#                    UCMPI_TUNING_FILE=tuned.txt)
#   --base-env "V=X ..."  the same for the base column
#   --rounds N       run every benchmark N times (default 1), the MPIs and
#                    ucx_perftest interleaved (round r starts with the r-th
#                    of them), and print per-size medians over the rounds
#                    and ratios of those medians; a single run of a 0-64 B
#                    latency swings +-10% on a shared machine
#   --stat best      with --rounds: each row's best round (lowest time,
#                    highest rate) instead of the median; this VM flips
#                    between ~0.1 and ~0.5 us "slow periods" every few
#                    seconds, and the best of N rounds leaves them out
#   --stat both      the tables of medians, then those of best rounds
#   --build DIR      ucmpi build tree (default: the current directory if it
#                    holds lib/libucmpi.la)
#   --mpis LIST      ucmpi,openmpi,mpich (default all)
#   --benches LIST   p2p_bench,coll_bench,perftest,oversub and any other
#                    bench/NAME.c (default: all); oversub also runs
#                    oversub_p2p (p2p patterns at 4 and 8 ranks) and
#                    poll_bench (programs that poll, 2 to 16 ranks)
#   --select LIST    sub-benchmarks passed as -b (e.g. latency,allreduce)
#   --coll-np LIST   rank counts of coll_bench (default 2,4,8)
#   --max-size B     cap on message sizes (e.g. 1M; default: each bench's)
#   --min-size B     smallest message size (default: each bench's)
#   --coll-max LIST  per rank count cap of coll_bench sizes, np:size pairs
#                    (default 2:64M,4:16M,8:4M: keeps the run ~15 minutes)
#   --budget S       seconds per size and bench (default 0.3)
#   --timeout S      limit of one benchmark run (default 240); a run that
#                    fails or times out shows n/a
#   --ucx-tls T      UCX_TLS for ucx_perftest (default shm,self: what an
#                    MPI uses inside one node)
#   --quick          small sizes and budgets (a smoke test, ~2 minutes)
#   --outdir DIR     keep builds, logs and raw results here
#   --no-install     do not apt-get missing peers
#   --max-time S     overall budget (default 900): once spent, the remaining
#                    runs are skipped (n/a) and the tables printed
#   --tables FILE    only print the tables of an earlier results.txt
# Each benchmark may state in its source:  bench-np: 2,4   bench-args: ...
set -u
has() { case ",$1," in *",$2,"*) return 0 ;; *) return 1 ;; esac; }
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/.." && pwd)

prefix="" build="" mpis="ucmpi,openmpi,mpich" benches="" select="" min_size=""
base="" rounds=1 stat=median ucmpi_env="" base_env=""
coll_np="2,4,8" max_size="" coll_max="2:64M,4:16M,8:4M" budget=0.3
run_timeout=240 ucx_tls="shm,self" quick=0 outdir="" install=1
max_time=900 tables_only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=$2; shift ;;
        --base) base=$2; shift ;;
        --env) ucmpi_env=$2; shift ;;
        --base-env) base_env=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --stat) stat=$2; shift ;;
        --build) build=$2; shift ;;
        --mpis) mpis=$2; shift ;;
        --benches) benches=$2; shift ;;
        --select) select=$2; shift ;;
        --coll-np) coll_np=$2; shift ;;
        --max-size) max_size=$2; shift ;;
        --min-size) min_size=$2; shift ;;
        --coll-max) coll_max=$2; shift ;;
        --budget) budget=$2; shift ;;
        --timeout) run_timeout=$2; shift ;;
        --ucx-tls) ucx_tls=$2; shift ;;
        --quick) quick=1 ;;
        --outdir) outdir=$2; shift ;;
        --no-install) install=0 ;;
        --max-time) max_time=$2; shift ;;
        --tables) tables_only=$2; shift ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$rounds" in ''|*[!0-9]*|0) echo "compare.sh: --rounds takes a positive count" >&2; exit 2 ;; esac
case "$stat" in median|best|both) ;; *) echo "compare.sh: --stat takes median, best or both" >&2; exit 2 ;; esac
if [ -n "$base" ]; then
    [ -x "$base/bin/mpicc" ] || { echo "compare.sh: no $base/bin/mpicc (--base)" >&2; exit 2; }
    has "$mpis" base || mpis="$mpis,base"
fi
if [ $quick = 1 ]; then
    budget=0.05; coll_max="2:1M,4:256K,8:64K"; [ -n "$max_size" ] || max_size=1M
    run_timeout=90 max_time=300
fi
outdir=${outdir:-$(mktemp -d /tmp/ucmpi-bench.XXXXXX)}
mkdir -p "$outdir"
results=$outdir/results.txt
: >"$results"
log() { echo "compare.sh: $*" >&2; }
start_time=$(date +%s)
# time_left SECONDS: is there that much of the overall budget left?
time_left() { [ $(( $(date +%s) - start_time + $1 )) -le "$max_time" ]; }

# print_tables RESULTS: one table per (benchmark, rank count), of the
# --stat (both: medians, then best rounds)
print_tables() {
    if [ "$stat" = both ]; then
        echo "== medians over the rounds"
        stat=median print_tables "$1"
        echo
        echo "== best rounds"
        stat=best print_tables "$1"
        return
    fi
echo "Ratios are ucmpi/peer of the value: for us and s lower is better, for MB/s and Mmsg/s higher is better."
awk -v stat="$stat" '
{ key = $2 SUBSEP $3; if (!(key in seen)) { seen[key] = 1; order[++n] = key; unit[key] = $7 }
  sz[key, $4] = 1; if (!((key, $4) in szseen)) { szseen[key, $4] = 1; sizes[key] = sizes[key] " " $4 }
  k = $1 SUBSEP key SUBSEP $4; cnt[k]++; all[k, cnt[k]] = $6
  if ($1 == "base") hasbase = 1 }
function f(v) { return v == "" ? "n/a" : (v + 0 >= 1000 ? sprintf("%.0f", v) : sprintf("%.3g", v)) }
function r(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "n/a" : (a / b >= 0.1 ? sprintf("%.2f", a / b) : sprintf("%.2g", a / b)) }
# median (or best: lowest time, highest rate) of the values a row got
# over the rounds
function med(k, u,   c, x, y, t, v) {
  c = cnt[k]; if (c == 0) return ""
  for (x = 1; x <= c; x++) v[x] = all[k, x] + 0
  for (x = 1; x <= c; x++) for (y = x + 1; y <= c; y++) if (v[y] < v[x]) { t = v[x]; v[x] = v[y]; v[y] = t }
  if (stat == "best") return (u == "us" || u == "s") ? v[1] : v[c]
  return c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
}
END {
  for (k in cnt) { split(k, kk, SUBSEP); val[k] = med(k, unit[kk[2] SUBSEP kk[3]]) }
  for (i = 1; i <= n; i++) {
    key = order[i]; split(key, kp, SUBSEP)
    pt = 0; m = split(sizes[key], ss, " ")
    for (j = 1; j <= m; j++) if (("ucx_perftest", key, ss[j]) in val) pt = 1
    printf "\n== %s, %s ranks (%s)\n", kp[1], kp[2], unit[key]
    printf "%10s %10s %10s %10s %8s %8s", "size", "ucmpi", "openmpi", "mpich", "/ompi", "/mpich"
    if (pt) printf " %10s %8s", "perftest", "/perft"
    if (hasbase) printf " %10s %8s", "base", "/base"
    printf "\n"
    # numeric sort of the sizes
    for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (ss[b] + 0 < ss[a] + 0) { t = ss[a]; ss[a] = ss[b]; ss[b] = t }
    for (j = 1; j <= m; j++) {
      s = ss[j]; u = val["ucmpi", key, s]; o = val["openmpi", key, s]; h = val["mpich", key, s]
      printf "%10s %10s %10s %10s %8s %8s", s, f(u), f(o), f(h), r(u, o), r(u, h)
      if (pt) { p = val["ucx_perftest", key, s]; printf " %10s %8s", f(p), r(u, p) }
      if (hasbase) { bb = val["base", key, s]; printf " %10s %8s", f(bb), r(u, bb) }
      printf "\n"
    }
  }
}' "$1"
}

if [ -n "$tables_only" ]; then
    print_tables "$tables_only"
    exit 0
fi

# ---- peers: Debian's Open MPI and MPICH, ucx_perftest ----
need=()
command -v mpicc.openmpi >/dev/null || need+=(openmpi-bin libopenmpi-dev)
command -v mpicc.mpich >/dev/null || need+=(mpich libmpich-dev)
command -v ucx_perftest >/dev/null || need+=(ucx-utils)
if [ ${#need[@]} -gt 0 ] && [ $install = 1 ]; then
    log "installing ${need[*]}"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
    { $sudo_ apt-get update -q && DEBIAN_FRONTEND=noninteractive \
        $sudo_ apt-get install -y -q "${need[@]}"; } >"$outdir/apt.log" 2>&1 ||
        log "apt-get failed (see $outdir/apt.log): missing peers show n/a"
fi
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# ---- how to build and launch with each MPI ----
declare -A MPICC MPILIBS MPIRUN
if [ -z "$prefix" ] && [ -z "$build" ] && [ -e "$PWD/lib/libucmpi.la" ]; then
    build=$PWD
fi
if [ -n "$base" ]; then
    MPICC[base]="$base/bin/mpicc"
    MPIRUN[base]="${base_env:+env $base_env }$base/bin/mpiexec"
fi
if [ -n "$prefix" ]; then
    MPICC[ucmpi]="$prefix/bin/mpicc"
    MPIRUN[ucmpi]="${ucmpi_env:+env $ucmpi_env }$prefix/bin/mpiexec"
elif [ -n "$build" ]; then
    build=$(cd "$build" && pwd)
    bsrc=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile" 2>/dev/null)
    MPICC[ucmpi]="${CC:-cc} -I${bsrc:-$srcdir}/include"
    MPILIBS[ucmpi]="-L$build/lib/.libs -Wl,-rpath,$build/lib/.libs -lucmpi"
    MPIRUN[ucmpi]="${ucmpi_env:+env $ucmpi_env }$build/runtime/mpiexec"
else
    log "no ucmpi given (--prefix or --build) and none here: ucmpi shows n/a"
fi
MPICC[openmpi]=mpicc.openmpi
MPICC[mpich]=mpicc.mpich
MPIRUN[mpich]="mpiexec.mpich -launcher fork"
ompi_base="mpiexec.openmpi --oversubscribe"
[ "$(id -u)" = 0 ] && ompi_base="$ompi_base --allow-run-as-root"

# ---- build ----
bench_srcs=()
for f in "$here"/*.c; do
    name=$(basename "$f" .c)
    if [ -z "$benches" ] || has "$benches" "$name" ||
        { { [ "${name%_p2p}" = oversub ] || [ "$name" = poll_bench ]; } &&
          has "$benches" oversub; }; then
        bench_srcs+=("$f")
    fi
done
declare -A BIN
for mpi in ${mpis//,/ }; do
    mkdir -p "$outdir/$mpi"
    cc=${MPICC[$mpi]:-}
    if [ -z "$cc" ] || ! command -v "${cc%% *}" >/dev/null; then
        log "$mpi: no compiler wrapper: its column shows n/a"
        continue
    fi
    for f in "${bench_srcs[@]}"; do
        name=$(basename "$f" .c)
        exe=$outdir/$mpi/$name
        # shellcheck disable=SC2086
        if $cc -O2 -I"$here" -o "$exe" "$f" ${MPILIBS[$mpi]:-} \
            >"$outdir/$mpi/$name.build.log" 2>&1; then
            BIN[$mpi/$name]=$exe
        else
            log "$mpi: $name does not build (see $outdir/$mpi/$name.build.log)"
        fi
    done
done

# Open MPI: force the UCX pml (it refuses shared memory unless told its
# transports may be any); fall back to its default if that cannot start.
if has "$mpis" openmpi && [ ${#BIN[@]} -gt 0 ]; then
    probe=(true)
    for k in "${!BIN[@]}"; do
        case "$k" in openmpi/oversub) probe=("${BIN[$k]}" 1) ;; esac
    done
    [ "${probe[0]}" = true ] && [ -n "${BIN[openmpi/p2p_bench]:-}" ] &&
        probe=("${BIN[openmpi/p2p_bench]}" -b latency -M 8)
    # a collectives-only run probes with its own benchmark: without a
    # probe it used to fall back to the default pml, untried
    [ "${probe[0]}" = true ] && [ -n "${BIN[openmpi/coll_bench]:-}" ] &&
        probe=("${BIN[openmpi/coll_bench]}" -b allreduce -M 8)
    ucx_opts="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
    # shellcheck disable=SC2086
    if [ "${probe[0]}" != true ] && timeout 60 $ompi_base $ucx_opts -n 2 "${probe[@]}" \
        >"$outdir/openmpi/probe.log" 2>&1; then
        MPIRUN[openmpi]="$ompi_base $ucx_opts"
        ompi_pml="pml ucx (forced: $ucx_opts)"
    else
        MPIRUN[openmpi]="$ompi_base"
        ompi_pml="its default pml (pml ucx failed to start or nothing to probe with: see $outdir/openmpi/probe.log)"
    fi
    log "Open MPI runs with $ompi_pml"
fi

# ---- run ----
# run_one MPI NAME NP ARGS...: appends "MPI NAME NP SIZE MEDIAN VALUE UNIT"
run_one() {
    local mpi=$1 name=$2 np=$3; shift 3
    local exe=${BIN[$mpi/$name]:-} out=$outdir/$mpi/$name.np$np.log
    [ -n "$exe" ] && [ -n "${MPIRUN[$mpi]:-}" ] || return 0
    local left=$(( max_time - ($(date +%s) - start_time) - 30 ))
    if [ $left -lt 10 ]; then
        log "out of time (--max-time $max_time): skipping $mpi $name np=$np"
        return 0
    fi
    [ $left -lt "$run_timeout" ] || left=$run_timeout
    log "running $mpi $name np=$np"
    # shellcheck disable=SC2086
    timeout -k 10 "$left" ${MPIRUN[$mpi]} -n "$np" "$exe" "$@" \
        >"$out" 2>&1 </dev/null
    local rc=$?
    [ $rc = 0 ] || log "$mpi $name np=$np failed (exit $rc, see $out)"
    # keep what it printed before failing: those rows are real
    awk -v m="$mpi" -v r="$round" '$1 == "BENCH" && NF >= 7 {
        print m, $2, $3, $4, $5, $6, $7, r }' "$out" >>"$results"
}

size_args=()
[ -n "$max_size" ] && size_args+=(-M "$max_size")
[ -n "$min_size" ] && size_args+=(-m "$min_size")
[ -n "$select" ] && size_args+=(-b "$select")

# run_bench FILE: one benchmark source, at its rank counts, every MPI
run_bench() {
    local f=$1 name np mpi cap nps extra args
    name=$(basename "$f" .c)
    if [ "$name" = coll_bench ]; then
        for np in ${coll_np//,/ }; do
            cap=$(echo ",$coll_max," | sed -n "s/.*,$np:\([^,]*\),.*/\1/p")
            args=("${size_args[@]}")
            [ -n "$cap" ] && [ -z "$max_size" ] && args+=(-M "$cap")
            for mpi in ${order//,/ }; do
                [ "$mpi" = perftest ] ||
                    run_one "$mpi" "$name" "$np" -t "$budget" "${args[@]}"
            done
        done
        return
    fi
    nps=$(sed -n 's/.*bench-np: *\([0-9,]*\).*/\1/p' "$f" | head -1)
    extra=$(sed -n 's/.*bench-args: *\(.*[^ */]\).*/\1/p' "$f" | head -1)
    for np in $(echo "${nps:-2}" | tr ',' ' '); do
        for mpi in ${order//,/ }; do
            # raw UCX takes its turn among the MPIs of p2p_bench
            if [ "$mpi" = perftest ]; then
                [ "$name" = p2p_bench ] && run_perftest
                continue
            fi
            # benches on bench.h take its options; others only their
            # bench-args
            # shellcheck disable=SC2086
            if grep -q '#include "bench.h"' "$f"; then
                run_one "$mpi" "$name" "$np" -t "$budget" "${size_args[@]}" $extra
            else
                run_one "$mpi" "$name" "$np" $extra
            fi
        done
    done
}

# raw ucx_perftest, server and client on loopback, every 4th size of the
# p2p sweep (a busy-polling pair suffers most on a loaded machine)
run_perftest() {
    [ "$perftest_ran" = 0 ] || return 0
    perftest_ran=1
    { [ -z "$benches" ] || has "$benches" perftest; } &&
        command -v ucx_perftest >/dev/null || return 0
    log "running ucx_perftest (UCX_TLS=$ucx_tls)"
    local pmax=$(( 4 << 20 )) port t s iters line spid
    if [ -n "$max_size" ]; then
        pmax=$(echo "$max_size" | awk '{ v = $1 + 0; u = substr($1, length($1));
            if (u ~ /[kK]/) v *= 1024; if (u ~ /[mM]/) v *= 1048576; print int(v) }')
    fi
    port=$((20000 + RANDOM % 20000))
    local pmin tests=""
    pmin=$(echo "${min_size:-0}" | awk '{ v = $1 + 0; u = substr($1, length($1));
        if (u ~ /[kK]/) v *= 1024; if (u ~ /[mM]/) v *= 1048576; print int(v) }')
    # --select: tag_lat for latency, tag_bw for bw (perftest has no bibw)
    { [ -z "$select" ] || has "$select" latency; } && tests="tag_lat"
    { [ -z "$select" ] || has "$select" bw; } && tests="$tests tag_bw"
    for t in $tests; do
        s=0; [ $t = tag_bw ] && s=1
        while [ "$s" -lt "$pmin" ]; do s=$(( s ? s * 4 : 1 )); done
        while [ "$s" -le "$pmax" ]; do
            if ! time_left 120; then
                log "out of time: ucx_perftest stops at $t $s bytes"
                return 0
            fi
            # tag_bw carries a fixed ~0.1 s cost per run: more iterations
            iters=10000; [ $t = tag_bw ] && iters=50000
            [ "$s" -ge 65536 ] && iters=1000
            [ $quick = 1 ] && iters=$((iters / 10))
            UCX_TLS=$ucx_tls timeout 30 ucx_perftest -p $port >/dev/null 2>&1 &
            spid=$!
            sleep 0.3
            line=$(UCX_TLS=$ucx_tls timeout 25 ucx_perftest 127.0.0.1 -p $port \
                -t $t -s "$s" -n $iters -w $((iters / 10)) 2>/dev/null | grep '^Final:')
            kill $spid 2>/dev/null
            wait $spid 2>/dev/null
            # Final: iters lat50% lat_avg lat_overall bw_avg bw_overall ...
            if [ -n "$line" ]; then
                echo "$line" | awk -v t=$t -v s="$s" -v r="$round" '{
                    if (t == "tag_lat") print "ucx_perftest latency 2", s, $3, $3, "us", r;
                    else print "ucx_perftest bw 2", s, $5, $7, "MB/s", r }' >>"$results"
            fi
            s=$(( s ? s * 4 : 1 ))
        done
    done
}

# oversubscribed jobs: wall time of the whole mpiexec (start-up included)
run_oversub() {
    { [ -z "$benches" ] || has "$benches" oversub; } || return 0
    local iters=300 np mpi exe t0 t1
    [ $quick = 1 ] && iters=50
    for np in 4 8; do
        for mpi in ${order//,/ }; do
            exe=${BIN[$mpi/oversub]:-}
            [ -n "$exe" ] && [ -n "${MPIRUN[$mpi]:-}" ] || continue
            time_left 60 || { log "out of time: skipping $mpi oversub np=$np"; continue; }
            log "running $mpi oversub np=$np"
            t0=$(date +%s.%N)
            # shellcheck disable=SC2086
            if timeout -k 10 "$run_timeout" ${MPIRUN[$mpi]} -n $np "$exe" $iters \
                >"$outdir/$mpi/oversub.np$np.log" 2>&1 </dev/null; then
                t1=$(date +%s.%N)
                echo "$mpi oversub_wall $np $iters $t0 $t1 $round" | awk '{
                    printf "%s %s %s %s %.0f %.3f s %s\n", $1, $2, $3, $4,
                        ($6 - $5) * 1e6, $6 - $5, $7 }' >>"$results"
            else
                log "$mpi oversub np=$np failed or timed out"
            fi
        done
    done
}

# rotate LIST R: the comma-separated LIST rotated left by R
rotate() {
    echo "$1" | awk -F, -v r="$2" '{
        for (i = 0; i < NF; i++) printf "%s%s", i ? "," : "", $((i + r) % NF + 1) }'
}

# Order: the point-to-point goals first, then collectives, then the rest;
# each round in its own order of the MPIs (and ucx_perftest), so that none
# always runs first or right after a build.
for round in $(seq 1 "$rounds"); do
    [ "$rounds" -gt 1 ] && log "round $round of $rounds"
    order=$(rotate "$mpis,perftest" $((round - 1)))
    perftest_ran=0
    for f in "${bench_srcs[@]}"; do
        [ "$(basename "$f")" = p2p_bench.c ] && run_bench "$f"
    done
    run_perftest
    order=$(rotate "$mpis" $((round - 1)))
    run_oversub
    for f in "${bench_srcs[@]}"; do
        case "$(basename "$f")" in
            p2p_bench.c|oversub.c) ;;
            *) run_bench "$f" ;;
        esac
    done
done

# ---- tables ----
echo
if [ "$rounds" = 1 ]; then
    echo "ucmpi vs Open MPI vs MPICH: medians of one run ($(date -u '+%F %H:%M UTC'), $(nproc) cores)"
else
    stats=${stat}s; [ "$stat" = both ] && stats="medians and bests"
    echo "ucmpi vs Open MPI vs MPICH: $stats over $rounds interleaved rounds of each run's median;" \
         "ratios of those $stats ($(date -u '+%F %H:%M UTC'), $(nproc) cores)"
fi
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) at the end"
[ -n "$base" ] && echo "base: ucmpi from $base${base_env:+ with $base_env}"
[ -n "$ucmpi_env" ] && echo "ucmpi runs with $ucmpi_env"

[ -n "${ompi_pml:-}" ] && echo "Open MPI used $ompi_pml"
echo "MPICH: $(mpichversion 2>/dev/null | sed -n 's/MPICH Device:[[:space:]]*//p')" \
     "launched with ${MPIRUN[mpich]}"
echo "ucx_perftest: UCX_TLS=$ucx_tls, latency = 50th percentile, bw = overall"
print_tables "$results"
echo
echo "raw results: $results (logs in $outdir); took $(( $(date +%s) - start_time )) s"
