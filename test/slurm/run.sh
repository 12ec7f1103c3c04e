#!/usr/bin/env bash
# ucmpi under Slurm: starts a private Slurm (slurm-local.sh), runs ucmpi
# programs (C, and Fortran built by the installed mpifort) through
# `srun --mpi=pmix`, checks that `srun --mpi=none|pmi2` gets ucmpi's refusal
# instead of N one-process jobs, that a dead peer is reported through the
# error handler, then stops every daemon it started.
# Run from the build directory (or set BUILDDIR) after `make check TESTS=`.
#
#   test/slurm/run.sh [--nodes N]
#     --nodes N   N Slurm nodes, each in a network namespace of its own
#                 (used by test/netns/run.sh; suite name "netns")
# Environment:
#   SLURM_TEST_LIST    test/mpi lines to run through srun
#                      (default: test/slurm/subset.list)
#   SLURM_TEST_NPS     process counts for the examples (default "1 2 4 8")
#   SLURM_BOUND        seconds a dead-peer run may take (default 10)
#   DEADPEER_STRICT    set: dead-peer runs that fail count as failures
#                      (default: XFAIL until the library reports dead peers)
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
# the build directory: $BUILDDIR (scripts/test.sh sets it) or the current one
cd "${BUILDDIR:-.}" || { echo "cannot enter build directory ${BUILDDIR:-.}"; exit 1; }
nodes=1 suite=slurm
if [ "${1:-}" = --nodes ]; then nodes=$2; suite=netns; fi
build=$PWD
subset=${SLURM_TEST_LIST:-$here/subset.list}
example_nps=${SLURM_TEST_NPS:-1 2 4 8}
bound=${SLURM_BOUND:-10}
pass=0 fail=0 skip=0 xfail=0 failed=() t_start=$EPOCHREALTIME
srun_args=() start_args=() N=
[ "$nodes" -gt 1 ] && srun_args=(-N "$nodes") start_args=(--nodes "$nodes") N="-N $nodes "

# Between namespaces of one host UCX would still pick shared memory (it
# knows the machine by its boot id): force the veth network, as between nodes.
if [ "$nodes" -gt 1 ]; then
    export UCX_TLS=${UCX_TLS:-tcp,self} UCX_NET_DEVICES=${UCX_NET_DEVICES:-eth0}
fi

say() { echo "$suite: $*"; }
result() {   # ok name [log]
    if [ "$1" = 1 ]; then
        pass=$((pass + 1)); echo "PASS: $2"
    else
        fail=$((fail + 1)); failed+=("$2"); echo "FAIL: $2"
        [ -n "${3:-}" ] && sed 's/^/    | /' "$3" | tail -n 15
    fi
}
skipped() { skip=$((skip + 1)); echo "SKIP: $*"; }
# folds the "subset: P passed, F failed, S skipped" of run-subset.sh into ours
add_subset() {   # log what
    local p f k
    grep -v '^subset: ' "$1" | sed 's/^/    /'
    read -r p f k < <(sed -n 's/^subset: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped/\1 \2 \3/p' "$1")
    if [ -z "$p" ]; then result 0 "test/mpi subset $2 (no summary)" "$1"; return; fi
    pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
    [ "$f" -gt 0 ] && failed+=("test/mpi subset $2: $f run(s)")
    echo "test/mpi subset $2: $p passed, $f failed, $k skipped"
}
finish() {
    [ $fail -gt 0 ] && { echo "Failed:"; printf '  %s\n' "${failed[@]}"; }
    [ $skip -gt 0 ] && say "$skip skipped"
    [ $xfail -gt 0 ] && say "$xfail known gap(s) (XFAIL), not counted as failures"
    awk -v a="$t_start" -v b="$EPOCHREALTIME" -v s="$suite" \
        'BEGIN { printf "%s: took %.1f s\n", s, b - a }'
    say "$pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
}

"$here/slurm-local.sh" install || { result 0 "install Slurm packages"; finish; }
cluster=$("$here/slurm-local.sh" start "${start_args[@]}")
if [ -z "$cluster" ]; then result 0 "start Slurm ($nodes node(s))"; finish; fi
trap '"$here/slurm-local.sh" stop "$cluster"' EXIT
trap 'exit 130' INT TERM
export SLURM_LOCAL_DIR=$cluster
logs=$cluster/logs
mkdir -p "$logs"
run=$cluster/run

# srun_case WANT_RC LOG srun-args... : runs srun (sets rc), checks its exit code
srun_case() {
    local want=$1 log=$2; shift 2
    timeout -k 5 120 "$run" srun --quiet "${srun_args[@]}" "$@" >"$log" 2>&1 </dev/null
    rc=$?
    [ "$want" = any ] || [ "$rc" = "$want" ] || { echo "exit code $rc, want $want" >>"$log"; return 1; }
}

rt=$build/test/launcher/rt_client
hello=$build/examples/hello
ring=$build/examples/ring
dead=$build/test/fault/dead_peer

# 1. the PMIx bootstrap alone (runtime test client)
if [ -x "$rt" ]; then
    for np in 2 4; do
        log=$logs/rt.$np
        srun_case 0 "$log" --mpi=pmix --kill-on-bad-exit=1 -n "$np" \
            env EXPECT_SIZE="$np" "$rt" info
        ok=$?
        [ $ok -eq 0 ] && [ "$(grep -c ' OK$' "$log")" -eq "$np" ] || ok=1
        [ "$nodes" -gt 1 ] && ! grep -q "nodes $nodes " "$log" && { echo "want nodes $nodes" >>"$log"; ok=1; }
        result $((ok == 0)) "rt_client info: srun --mpi=pmix $N-n $np" "$log"
    done
else
    skipped "rt_client not built"
fi

# 2. refusal without a PMIx server: one clear message, no N singleton jobs
# (an MPI program: MPI_Init refuses; the runtime client: ucmpi_rt_init refuses)
refusal_progs=()
for p in "$hello" "$build/test/fault/fault_prog abort 0 0" "$rt info"; do
    [ -x "${p%% *}" ] && refusal_progs+=("$p")
done
for plugin in none pmi2; do
    "$run" srun --mpi=list 2>&1 | grep -qw "$plugin" || { skipped "no --mpi=$plugin plugin"; continue; }
    for p in "${refusal_progs[@]}"; do
        log=$logs/refuse.$plugin.$(basename "${p%% *}")
        # shellcheck disable=SC2086
        srun_case any "$log" --mpi="$plugin" -n 2 $p
        ok=1
        grep -q -- '--mpi=pmix' "$log" || { echo "no advice to use --mpi=pmix" >>"$log"; ok=0; }
        grep -Eq '^(hello|rank [0-9]+ size 1 |rank 0 of 1: up)' "$log" &&
            { echo "ran as singletons" >>"$log"; ok=0; }
        [ "$rc" -ne 0 ] || { echo "srun exit code 0" >>"$log"; ok=0; }
        result $ok "refusal: srun --mpi=$plugin $N-n 2 $(basename "${p%% *}")" "$log"
    done
done

# 3. the examples (program, process counts, arguments)
examples=("hello:$example_nps:" "ring:$example_nps:" "pingpong:2:1048576"
          "sgd_allreduce:3 4:" "moe_alltoallv:4:" "param_server:3 4:")
for spec in "${examples[@]}"; do
    IFS=: read -r ex ex_nps ex_args <<<"$spec"
    prog=$build/examples/$ex
    [ -x "$prog" ] || { skipped "examples/$ex not built"; continue; }
    for np in $ex_nps; do
        [ "$np" -lt "$nodes" ] && continue
        log=$logs/$ex.$np
        # shellcheck disable=SC2086
        srun_case 0 "$log" --mpi=pmix --kill-on-bad-exit=1 -n "$np" "$prog" $ex_args
        result $((! $?)) "examples/$ex: srun --mpi=pmix $N-n $np" "$log"
    done
done

# 3a. dynamic processes: connect/accept works, spawn fails with MPI_ERR_SPAWN
# (Slurm does not spawn through PMIx) and says so
for spec in "dpm_connect:2 3" "dpm_spawn:2"; do
    prog=$build/test/mpi/comm/${spec%%:*}
    [ -x "$prog" ] || { skipped "test/mpi/comm/${spec%%:*} not built"; continue; }
    for np in ${spec#*:}; do
        [ "$np" -lt "$nodes" ] && continue
        log=$logs/${spec%%:*}.$np
        DPM_SPAWN_MODE=srun srun_case 0 "$log" --mpi=pmix --kill-on-bad-exit=1 -n "$np" "$prog"
        result $((! $?)) "${spec%%:*}: srun --mpi=pmix $N-n $np" "$log"
    done
done

# 3a'. names: Slurm's PMIx has no name service; with ucmpi_nameserver
# (UCMPI_NAMESERVER) the ranks ask it themselves (one node: it listens on
# the loopback)
prog=$build/test/mpi/comm/dpm_namepub nsd=$build/runtime/ucmpi_nameserver
if [ "$nodes" -gt 1 ]; then
    skipped "names through ucmpi_nameserver (one-node run only)"
elif [ ! -x "$prog" ] || [ ! -x "$nsd" ]; then
    skipped "dpm_namepub or ucmpi_nameserver not built"
else
    rm -f "$logs/ns.addr"
    "$nsd" --bind 127.0.0.1 --address-file "$logs/ns.addr" >"$logs/ns.out" 2>&1 &
    nsd_pid=$!
    for _ in $(seq 100); do [ -f "$logs/ns.addr" ] && break; sleep 0.1; done
    for np in 2 3; do
        log=$logs/namepub.$np
        UCMPI_NAMESERVER=$(cat "$logs/ns.addr" 2>/dev/null) \
            srun_case 0 "$log" --mpi=pmix --kill-on-bad-exit=1 -n "$np" "$prog"
        result $((! $?)) "dpm_namepub through ucmpi_nameserver: srun --mpi=pmix -n $np" "$log"
    done
    kill "$nsd_pid"
fi

# 3b. Fortran: programs built by the installed mpifort (no LD_LIBRARY_PATH)
fort=$build/tools/mpifort
if [ ! -x "$fort" ]; then
    skipped "mpifort not built (--disable-fortran)"
elif [ ! -f "$("$fort" -compile-info | sed 's/.*-I\([^ ]*\).*/\1/')/mpi_f08.mod" ]; then
    skipped "Fortran programs: ucmpi not installed (make install)"
else
    fsteps=
    for spec in "heat2d:examples/heat2d.f90:1 2 4" "f08_basic:test/fortran/f08_basic.f90:2 4" \
                "f90_reduce:test/fortran/f90_reduce.f90:3" "f77_p2p:test/fortran/f77_p2p.f90:2"; do
        IFS=: read -r fp fsrc fnps <<<"$spec"
        flags=()
        [ "$fp" = f77_p2p ] && flags=(-ffixed-form)
        log=$logs/fort.$fp
        (cd "$cluster" && env -u LD_LIBRARY_PATH "$fort" -O2 "${flags[@]}" -o "$fp" "$src/$fsrc") >"$log" 2>&1 ||
            { result 0 "mpifort -O2 $fsrc" "$log"; continue; }
        for np in $fnps; do
            [ "$np" -lt "$nodes" ] && continue
            log=$logs/fort.$fp.$np
            srun_case 0 "$log" --mpi=pmix --kill-on-bad-exit=1 -n "$np" env -u LD_LIBRARY_PATH "$cluster/$fp"
            ok=$((! $?))
            if [ "$fp" = heat2d ]; then   # same number of steps on every rank count
                s=$(sed -n 's/.* \([0-9]*\) steps.*/\1/p' "$log")
                [ -n "$s" ] && [ "${fsteps:=$s}" = "$s" ] || { echo "steps '$s', want '$fsteps'" >>"$log"; ok=0; }
            else
                grep -q 'No Errors' "$log" || ok=0
            fi
            result $ok "Fortran $fp (mpifort): srun --mpi=pmix $N-n $np" "$log"
        done
    done
fi

# 4. a subset of test/mpi through srun
log=$logs/mpi
MPIEXEC=$here/srun-mpiexec SRUN_ARGS="${srun_args[*]}" TEST_LOGDIR=$logs/mpi.d \
    "$here/run-subset.sh" "$subset" >"$log" 2>&1
add_subset "$log" "through srun"

# 5. dead peer: the survivors' calls fail through the error handler.  Slurm
# cancels the step about a second after a task dies (its PMIx plugin sees
# the lost client), so the library must notice first: over TCP the kernel
# resets the connections at once; shared memory would need UCX keepalive.
# Until issue 7 part 4 lands these are XFAIL; DEADPEER_STRICT=1 fails them.
if [ -x "$dead" ]; then
    for spec in "2 recv" "4 recv" "4 coll" "4 fatal" "4 rma" "4 fence"; do
        set -- $spec
        np=$1 variant=$2 log=$logs/dead.$np.$variant victim=1 place=()
        [ "$np" -lt "$nodes" ] && continue
        if [ "$nodes" -gt 1 ]; then
            # the victim alone on the last node: Slurm then does not cancel
            # the step, so the library alone decides whether survivors hang
            victim=$((np - 1))
            { for i in $(seq $((np - 1))); do echo n1; done; echo "n$nodes"; } >"$cluster/hosts.$np"
            place=(-m arbitrary)
            export SLURM_HOSTFILE=$cluster/hosts.$np
        fi
        t0=$EPOCHREALTIME
        UCX_TLS=${UCX_TLS:-tcp,self} timeout -k 2 "$bound" "$run" srun --quiet \
            "${srun_args[@]}" "${place[@]}" --mpi=pmix --kill-on-bad-exit=0 -n "$np" \
            "$dead" "$victim" "$variant" >"$log" 2>&1 </dev/null
        unset SLURM_HOSTFILE
        rc=$?
        secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
        ok=1
        [ $rc -eq 124 ] && { echo "hung: killed after ${bound}s" >>"$log"; ok=0; }
        if [ "$variant" = fatal ]; then
            # the default handler names the call; Slurm's kill alone does not count
            grep -q 'MPI_Recv' "$log" || { echo "no error report from MPI_Recv's default handler" >>"$log"; ok=0; }
            grep -q 'returned success' "$log" && ok=0
        else
            n=$(grep -c 'error handler called' "$log")
            [ "$n" -eq $((np - 1)) ] || { echo "$n of $((np - 1)) survivors reported the error" >>"$log"; ok=0; }
            grep 'error handler called' "$log" | sed 's/^/    /'
        fi
        name="dead peer ($variant): srun $N-n $np, rank $victim dies, ended after ${secs}s"
        if [ $ok -eq 0 ] && [ -z "${DEADPEER_STRICT:-}" ]; then
            xfail=$((xfail + 1)); echo "XFAIL: $name (issue 7 part 4: dead peers in the library)"
            sed 's/^/    | /' "$log" | tail -n 4
        else
            result $ok "$name" "$log"
        fi
    done
else
    skipped "test/fault/dead_peer not built"
fi

# 6. fault tolerance (ULFM) under srun: UCMPI_FT=ulfm and --no-kill -K0
# keep the survivors running (the library's keeper holds a dead rank's PMIx
# connection, so Slurm's PMIx plugin does not cancel the step); they shrink
# and finish, and examples/elastic_sgd recovers with the checked result.
ulfm=$build/test/fault/ulfm_prog
elastic=$build/examples/elastic_sgd
if [ -x "$ulfm" ] && [ -x "$elastic" ] && [ "$nodes" -eq 1 ]; then
    for spec in "ulfm:4:shrink 1" "ulfm:5:shrink 0,3" "ulfm:4:p2p 2" \
                "elastic:4:120 0:20" "elastic:5:120 1:60 3:60" "elastic:3:120 2:1 0:80"; do
        IFS=: read -r what np args <<<"$spec"
        log=$logs/ft.$what.$np.${args// /_}
        prog=$ulfm
        [ "$what" = elastic ] && prog=$elastic
        # shellcheck disable=SC2086
        UCMPI_FT=ulfm srun_case 137 "$log" --mpi=pmix --no-kill -K0 -n "$np" "$prog" $args
        ok=$((! $?))
        if [ "$what" = elastic ]; then
            grep -q "^OK: 120 steps" "$log" || { echo "no checked result" >>"$log"; ok=0; }
        else
            v=$(tr ',' '\n' <<<"${args#* }" | wc -l)
            n=$(grep -c "ULFM-OK" "$log")
            [ "$n" -eq $((np - v)) ] || { echo "$n of $((np - v)) survivors OK" >>"$log"; ok=0; }
            grep -q ULFM-FAIL "$log" && ok=0
        fi
        grep -q "CANCELLED" "$log" && { echo "Slurm cancelled the step" >>"$log"; ok=0; }
        result $ok "ULFM $what $args: UCMPI_FT=ulfm srun --no-kill -K0 -n $np" "$log"
    done
elif [ "$nodes" -eq 1 ]; then
    skipped "ULFM under srun: test/fault/ulfm_prog or examples/elastic_sgd not built"
fi

finish
