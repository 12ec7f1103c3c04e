#!/usr/bin/env bash
# ucmpi across network namespaces:
# 1. dpm.sh: two mpiexec jobs on two emulated machines meet through a port
#    name published in ucmpi_nameserver (connect/accept over TCP only).
# 2. Two Slurm nodes, each slurmd (and so each rank it starts) in a network
#    namespace of its own, linked by veth pairs to a bridge; ranks reach each
#    other only over that network (10.213.77.0/24), with Slurm's PMIx doing
#    the cross-node modex.  The same checks as test/slurm/run.sh with
#    `srun -N 2`, and UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 (between
#    namespaces of one host UCX would otherwise use shared memory).
# Skips, with the reason, where the sandbox does not allow network, mount or
# UTS namespaces or veth pairs.  Ends with the sum of both parts' counts.
# Run from the build directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: network namespaces need root"; echo "netns: 0 passed, 0 failed"; exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
count() {   # passed|failed: from the last "N passed, N failed" line of $log
    grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 | grep -oE "[0-9]+ $1" |
        grep -oE '[0-9]+' || echo 0
}
bash "$here/dpm.sh" 2>&1 | tee "$log"
p=$(count passed) f=$(count failed)
if ! why=$("$here/../slurm/slurm-local.sh" netns-check); then
    echo "SKIP: $why"
else
    "$here/../slurm/run.sh" --nodes 2 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    p=$((p + $(count passed))) f=$((f + $(count failed)))
    [ "$rc" -ne 0 ] && [ "$(count failed)" -eq 0 ] && f=$((f + 1))
fi
echo "netns: $p passed, $f failed"
[ "$f" -eq 0 ]
