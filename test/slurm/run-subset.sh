#!/usr/bin/env bash
# Runs the lines of a list (default test/slurm/subset.list) whose programs
# are built, through test/mpi/runtests with the caller's MPIEXEC; prints the
# runs and "subset: P passed, F failed, S skipped".  Run from the build dir.
set -u
here=$(cd "$(dirname "$0")" && pwd)
list=${1:-$here/subset.list}
builddir=${TEST_BUILDDIR:-$PWD/test/mpi}
tmp=$(mktemp /tmp/ucmpi-subset.XXXXXX) || exit 1
trap 'rm -f "$tmp"' EXIT
skip=0
while read -r prog rest; do
    case "$prog" in ''|\#*) continue ;; esac
    if [ -x "$builddir/$prog" ]; then
        echo "$prog $rest" >>"$tmp"
    else
        skip=$((skip + 1)); echo "SKIP: $prog (not built)"
    fi
done <"$list"
p=0 f=0
if [ -s "$tmp" ]; then
    TEST_LISTS=$tmp "$here/../mpi/runtests" >"$tmp.out" 2>&1
    grep -vE '^mpi: [0-9]+ passed' "$tmp.out"
    p=$(sed -n 's/^mpi: \([0-9]*\) passed.*/\1/p' "$tmp.out")
    f=$(sed -n 's/^mpi: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$tmp.out")
    [ -n "$p" ] || { echo "runtests gave no summary"; p=0 f=1; }
    rm -f "$tmp.out"
fi
echo "subset: $p passed, $f failed, $skip skipped"
[ "$f" -eq 0 ]
