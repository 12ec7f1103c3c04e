#!/usr/bin/env bash
# Proves the runtime client under Slurm: starts a private munged, slurmctld
# and slurmd (Debian's packages, as root, private sockets/ports/dirs), runs
# `srun --mpi=pmix` jobs of rt_client, then stops them.  Run from the build
# directory; prints "slurm: N passed, N failed", or "slurm: skipped (why)".
set -u
CLIENT=${RT_CLIENT:-$PWD/test/launcher/rt_client}
for p in munged slurmctld slurmd srun; do
    command -v $p >/dev/null || { echo "slurm: skipped (no $p)"; exit 0; }
done
[ "$(id -u)" = 0 ] || { echo "slurm: skipped (needs root)"; exit 0; }
dir=$(mktemp -d /tmp/ucmpi-rt-slurm.XXXXXX)
chmod 755 "$dir"
host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
pass=0 fail=0
cleanup() {   # our daemons only, by their pid files; SIGKILL if they linger
    local pids="" p i
    for f in d.pid ctld.pid munged.pid; do
        [ -s "$dir/$f" ] && pids="$pids $(cat "$dir/$f")"
    done
    for p in $pids; do kill "$p" 2>/dev/null; done
    for i in $(seq 50); do
        for p in $pids; do kill -0 "$p" 2>/dev/null && break; p=; done
        [ -z "$p" ] && break
        sleep 0.1
    done
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/state" "$dir/spool"
cat >"$dir/slurm.conf" <<CONF
ClusterName=ucmpitest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/ctld.pid
SlurmdPidFile=$dir/d.pid
SlurmctldLogFile=$dir/ctld.log
SlurmdLogFile=$dir/d.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=16 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
export SLURM_CONF=$dir/slurm.conf
munged --force --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" --key-file=/etc/munge/munge.key ||
    { echo "slurm: skipped (munged does not start)"; exit 0; }
slurmctld -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" ||
    { echo "slurm: skipped (daemons do not start)"; tail "$dir"/*.log; exit 0; }
for i in $(seq 60); do
    timeout 3 sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mix)' && break
    sleep 0.5
done
timeout 3 sinfo -h -o %T | grep -qE '^(idle|mix)' || { echo "slurm: skipped (node not up)"; tail "$dir"/*.log; exit 0; }

check() {   # name command...: expects exit 0
    local name=$1
    shift
    if timeout 60 "$@" >"$dir/out" 2>&1; then
        [ -n "${VERBOSE:-}" ] && cat "$dir/out"
        pass=$((pass + 1)); echo "PASS: $name"
    else
        fail=$((fail + 1)); echo "FAIL: $name"; sed 's/^/    | /' "$dir/out" | tail -20
    fi
}
for n in 1 2 4; do
    check "srun --mpi=pmix -n $n info" \
        srun --mpi=pmix -n $n env EXPECT_SIZE=$n EXPECT_SINGLETON=0 "$CLIENT" info
done
MPIJOB=${MPI_JOB:-$PWD/test/launcher/mpi_job}
if [ -x "$MPIJOB" ]; then
    for n in 1 3 4; do
        check "srun --mpi=pmix -n $n mpi_job (MPI ring)" \
            sh -c "srun --mpi=pmix -n $n '$MPIJOB' ok | grep -q 'token $n OK'"
    done
    # MPI_Abort through Slurm's PMIx server ends the step (not just the rank)
    check "srun --mpi=pmix -n 3 mpi_job abort: step ends, non-zero" \
        sh -c "! timeout 30 srun --mpi=pmix -n 3 '$MPIJOB' abort 1 7"
fi
check "srun --mpi=none -n 2 refuses with advice" \
    sh -c "srun --mpi=none -n 2 '$CLIENT' info 2>&1 | grep -q 'run with .srun --mpi=pmix'"
[ -n "${VERBOSE:-}" ] && cat "$dir/out"
echo "slurm: $pass passed, $fail failed"
[ $fail -eq 0 ]
