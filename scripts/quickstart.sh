#!/usr/bin/env bash
# README command 1: dependencies, build, install into a local prefix, then
# compile examples/ring.c with the installed mpicc and run it on 4 ranks.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export PREFIX=${PREFIX:-$repo/install}
"$repo/scripts/setup.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$PREFIX/bin/mpicc" -O2 -o "$work/ring" "$repo/examples/ring.c"
echo "+ $PREFIX/bin/mpiexec -n 4 ring"
"$PREFIX/bin/mpiexec" -n 4 "$work/ring"
