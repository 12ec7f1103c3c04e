#!/usr/bin/env bash
# Dynamic processes across machines, emulated by network namespaces: two
# "nodes" (a network, mount and UTS namespace each: own address, hostname
# and /tmp), linked through a bridge in a third namespace that also runs
# ucmpi_nameserver.  A server job (mpiexec on node 1) publishes its port
# through the name server and accepts; client jobs (mpiexec on node 2) look
# the name up and connect, over TCP only (UCX_TLS=tcp,self).
# Run from the build directory; root only (skips otherwise).
# Prints "netns-dpm: N passed, N failed".
set -u
MPIEXEC=${MPIEXEC:-$PWD/runtime/mpiexec}
NSD=${NSD:-$PWD/runtime/ucmpi_nameserver}
JOB=$PWD/test/launcher/dpm_job
scale=${TEST_TIMEOUT_SCALE:-1}
NET=10.213.78
pass=0 fail=0
finish() { echo "netns-dpm: $pass passed, $fail failed"; [ $fail -eq 0 ]; }
skip() { echo "SKIP: $1"; finish; exit 0; }

[ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
[ -x "$JOB" ] && [ -x "$NSD" ] || skip "no $JOB or $NSD (make check-launcher builds them)"
tag=ucmpi-dpm-$$
work=$(mktemp -d "$PWD/netns-dpm.XXXXXX")
nsd_pid=
cleanup() {
    [ -n "$nsd_pid" ] && kill "$nsd_pid" 2>/dev/null
    for ns in "$tag-n1" "$tag-n2" "$tag-sw"; do ip netns del "$ns" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

ip netns add "$tag-sw" 2>/dev/null || skip "cannot create network namespaces"
ip -n "$tag-sw" link set lo up &&
    ip -n "$tag-sw" link add br0 type bridge &&
    ip -n "$tag-sw" addr add "$NET.254/24" dev br0 &&
    ip -n "$tag-sw" link set br0 up || skip "cannot make a bridge"
for i in 1 2; do
    ip netns add "$tag-n$i" &&
        ip -n "$tag-n$i" link set lo up &&
        ip link add eth0 netns "$tag-n$i" type veth peer name "p$i" netns "$tag-sw" &&
        ip -n "$tag-n$i" addr add "$NET.$i/24" dev eth0 &&
        ip -n "$tag-n$i" link set eth0 up &&
        ip -n "$tag-sw" link set "p$i" master br0 up || skip "cannot make veth pairs"
done

# on_node I CMD...: CMD on node I, with its own hostname and /tmp
on_node() {
    local i=$1
    shift
    nsenter --net="/run/netns/$tag-n$i" unshare -m -u sh -c \
        'mount --make-rprivate / && mount -t tmpfs tmpfs /tmp && hostname "$0" && exec "$@"' \
        "node$i" "$@"
}
on_node 1 true 2>/dev/null || skip "cannot make mount/UTS namespaces"

nsenter --net="/run/netns/$tag-sw" "$NSD" --bind "$NET.254" --address-file "$work/ns" \
    >"$work/nsd.out" 2>&1 &
nsd_pid=$!
for _ in $(seq 100); do [ -f "$work/ns" ] && break; sleep 0.1; done
addr=$(cat "$work/ns" 2>/dev/null)

result() {   # ok name log...
    local ok=$1 name=$2
    shift 2
    if [ "$ok" = 1 ]; then
        pass=$((pass + 1)); echo "PASS: $name"
    else
        fail=$((fail + 1)); echo "FAIL: $name"
        for f in "$@"; do sed "s|^|    ${f##*/}| |" "$f" 2>/dev/null | tail -n 15; done
    fi
}
result "$([ -n "$addr" ] && echo 1)" "name server up in the bridge's namespace ($addr)" "$work/nsd.out"
[ -n "$addr" ] || { finish; exit; }

export UCX_TLS=tcp,self UCX_NET_DEVICES=eth0
export DPM_SERVICE=ucmpi-netns-dpm-$$
# the server accepts three client jobs in turn: 3, 1 and 2 ranks
timeout -k 5 $((240 * scale)) env UCMPI_NAMESERVER="$addr" \
    bash -c "$(declare -f on_node); tag=$tag; on_node 1 '$MPIEXEC' -n 2 '$JOB' server '$work/port' 3" \
    >"$work/srv.out" 2>"$work/srv.err" </dev/null &
srv=$!
for m in 3 1 2; do
    timeout -k 5 $((120 * scale)) env UCMPI_NAMESERVER="$addr" \
        bash -c "$(declare -f on_node); tag=$tag; on_node 2 '$MPIEXEC' -n $m '$JOB' client '$work/port'" \
        >"$work/cli$m.out" 2>"$work/cli$m.err" </dev/null
    rc=$?
    ok=0
    [ $rc = 0 ] && grep -q "dpm client of $m ranks: remote 2 OK" "$work/cli$m.out" && ok=1
    result $ok "client job of $m on node2 found the port by name and connected (exit $rc)" \
        "$work/cli$m.out" "$work/cli$m.err"
done
wait $srv
rc=$?
ok=0
[ $rc = 0 ] && [ "$(grep -c 'dpm server of 2 ranks: remote [0-9] OK' "$work/srv.out")" = 3 ] && ok=1
result $ok "server job on node1 accepted three jobs in turn, disconnecting each (exit $rc)" \
    "$work/srv.out" "$work/srv.err"
# the port's name carries the server's address on node1's network
grep -q . "$work/port" && grep -q "ucmpi-port:" "$work/port"
result "$([ $? = 0 ] && echo 1)" "a port name of ours in the file" "$work/port"
finish
