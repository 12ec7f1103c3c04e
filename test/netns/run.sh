#!/usr/bin/env bash
# ucmpi across network namespaces: two Slurm nodes, each slurmd (and so each
# rank it starts) in a network namespace of its own, linked by veth pairs to
# a bridge; ranks reach each other only over that network (10.213.77.0/24),
# with Slurm's PMIx doing the cross-node modex.  The same checks as
# test/slurm/run.sh with `srun -N 2`, and UCX_TLS=tcp,self UCX_NET_DEVICES=eth0
# (between namespaces of one host UCX would otherwise use shared memory).
# Skips, with the reason, where the sandbox does not allow network, mount or
# UTS namespaces or veth pairs.
# Run from the build directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: network namespaces need root"; echo "netns: 0 passed, 0 failed"; exit 0
fi
if ! why=$("$here/../slurm/slurm-local.sh" netns-check); then
    echo "SKIP: $why"; echo "netns: 0 passed, 0 failed"; exit 0
fi
exec "$here/../slurm/run.sh" --nodes 2
