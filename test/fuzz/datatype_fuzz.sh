#!/bin/sh
# Builds the datatype libFuzzer target with clang (ASan + libFuzzer) and
# runs it for a bounded time.  Usage: datatype_fuzz.sh [SECONDS] [ARGS...]
# (default 20 s; extra arguments go to libFuzzer).  Exit 77 (skip) without
# a clang that has libFuzzer.  Works from any directory; builds in
# ${FUZZ_BUILDDIR:-./test/fuzz}.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-20}
[ $# -gt 0 ] && shift
out=${FUZZ_BUILDDIR:-$PWD/test/fuzz}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null 2>&1 || { echo "no $CLANG: skipped"; exit 77; }
mkdir -p "$out/corpus"
srcs="$here/datatype_fuzz.c $top/test/unit/datatype_ref.c
      $top/test/unit/datatype_refgen.c $top/test/unit/datatype_stubs.c
      $top/lib/core/call.c
      $top/lib/datatype/*.c"
# shellcheck disable=SC2086
if ! "$CLANG" -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
        -fno-sanitize-recover=undefined -I"$top/include" -I"$top/lib" -I"$top/runtime" \
        -I"$top/test/unit" $srcs -o "$out/datatype_fuzz" 2>"$out/build.log"; then
    if grep -q "fuzzer" "$out/build.log"; then
        echo "clang without libFuzzer: skipped"; exit 77
    fi
    cat "$out/build.log"; exit 1
fi
exec "$out/datatype_fuzz" -max_total_time="$secs" -max_len=512 \
    -print_final_stats=1 "$@" "$out/corpus"
