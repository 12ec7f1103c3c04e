#!/usr/bin/env bash
# README command 2 (and CI): set up if needed, then run the whole suite:
# unit tests (Check), multi-rank tests through mpiexec, launcher, fault,
# TCP and Slurm suites.  Ends with one line "N passed, N failed".
#   TEST_SUITES  space-separated subset of: unit mpi fortran launcher fault tcp netns slurm
#   TEST_FILTER  regex of test/mpi (and test/fortran) programs to run
#   TEST_VALGRIND=1  run every test/mpi rank under valgrind (leaks included)
#   CONFIGURE_FLAGS=--enable-asan BUILDDIR=build-asan  an ASan build
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export PREFIX=${PREFIX:-$repo/install}
export BUILDDIR=${BUILDDIR:-$repo/build}
# ASan builds: libpmix's own never-freed start-up allocations are not ours
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$repo/test/launcher/lsan.supp:print_suppressions=0}
suites=${TEST_SUITES:-unit mpi fortran launcher fault tcp netns slurm}
#   TEST_LISTS  test/mpi list files; relative paths are from where this runs
#   (the suites cd into BUILDDIR, where a relative path would name nothing)
if [ -n "${TEST_LISTS:-}" ]; then
    lists=
    for l in $TEST_LISTS; do
        case $l in /*) ;; *) l=$PWD/$l ;; esac
        [ -f "$l" ] || { echo "test.sh: no list file $l"; echo "0 passed, 1 failed"; exit 1; }
        lists="$lists $l"
    done
    export TEST_LISTS=${lists# }
fi
"$repo/scripts/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }

total_pass=0 total_fail=0
declare -a summary

# Reads "...: N passed, N failed" from a suite's output (last such line).
tally() {   # name logfile rc
    local line p f
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+')
        f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
    else
        p=0; f=1
    fi
    [ "$3" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
    summary+=("$(printf '%-9s %5d passed, %3d failed' "$1" "$p" "$f")")
}

run_suite() {   # name command...
    local name=$1; shift
    local log="$BUILDDIR/suite-$name.log" start=$SECONDS
    echo "=== $name"
    "$@" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    tally "$name" "$log" "$rc"
    echo "=== $name done in $((SECONDS - start)) s"
}

unit_suite() {
    cd "$BUILDDIR" || return 1
    make -j"$(nproc)" check >check.out 2>&1
    local rc=$?
    grep -E '^(PASS|FAIL|XFAIL|XPASS|ERROR|SKIP):' check.out
    [ $rc -ne 0 ] && grep -E "error|Error" check.out | head -20 && \
        cat test-suite.log 2>/dev/null | tail -40
    local p f
    p=$(grep -cE '^PASS:' check.out); f=$(grep -cE '^(FAIL|ERROR|XPASS):' check.out)
    [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
    echo "unit: $p passed, $f failed"
    return $rc
}

# Builds every test program once (make check without running TESTS).
build_tests() {
    [ -n "${tests_built:-}" ] && return 0
    (cd "$BUILDDIR" && make -j"$(nproc)" check TESTS= >build-tests.out 2>&1) \
        || { grep -E "error|Error" -A3 "$BUILDDIR/build-tests.out" | head -40; return 1; }
    tests_built=1
}

mpi_suite() {
    cd "$BUILDDIR" || return 1
    if [ "${TEST_VALGRIND:-0}" = 1 ]; then
        export TEST_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full \
--errors-for-leak-kinds=definite --suppressions=$repo/test/valgrind.supp"
        export TEST_TIMEOUT_SCALE=${TEST_TIMEOUT_SCALE:-5}
    fi
    MPIEXEC="$BUILDDIR/runtime/mpiexec" TEST_BUILDDIR="$BUILDDIR/test/mpi" \
        TEST_LOGDIR="$BUILDDIR/test-logs" "$repo/test/mpi/runtests"
}

# test/fortran's programs, listed in test/fortran/fortran.list, run by the
# same runner; nothing to run when configured with --disable-fortran.
fortran_suite() {
    cd "$BUILDDIR" || return 1
    if [ ! -e lib/libucmpi_fortran.la ]; then
        echo "fortran: bindings not built (--disable-fortran)"
        echo "fortran: 0 passed, 0 failed"
        return 0
    fi
    MPIEXEC="$BUILDDIR/runtime/mpiexec" TEST_BUILDDIR="$BUILDDIR/test/fortran" \
        TEST_LISTS="$repo/test/fortran/fortran.list" \
        TEST_LOGDIR="$BUILDDIR/test-logs" "$repo/test/mpi/runtests"
}

for s in $suites; do
    case "$s" in
        unit) run_suite unit unit_suite ;;
        mpi) build_tests; run_suite mpi mpi_suite ;;
        fortran) build_tests; run_suite fortran fortran_suite ;;
        launcher|fault|tcp|netns|slurm)
            runner="$repo/test/$s/run.sh"
            if [ -f "$runner" ]; then
                build_tests
                run_suite "$s" bash -c 'cd "$BUILDDIR" && exec bash "$0"' "$runner"
            fi ;;
        *) echo "unknown suite $s"; total_fail=$((total_fail + 1)) ;;
    esac
done

echo
echo "Summary:"
printf '  %s\n' "${summary[@]}"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
