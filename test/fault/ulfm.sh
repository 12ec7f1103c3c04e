# ULFM cases of the fault suite, sourced by test/fault/run.sh (its start_job,
# finish_job, check_job and report).  Each runs test/fault/ulfm_prog MODE
# VICTIMS under `mpiexec --with-ft ulfm`: the victims kill themselves
# (SIGKILL) at a chosen point, every survivor must print "rank R: ULFM-OK"
# and no "ULFM-FAIL", the job ends with the victims' code (137; 0 without).
#   ULFM_NPS     process counts (default "3 4 5 8")
#   FAULT_FILTER selects cases by name too (ulfm-MODE)

ulfm_prog=${ULFM_PROG:-$PWD/test/fault/ulfm_prog}
ulfm_nps=${ULFM_NPS:-3 4 5 8}

# victims spec for np: "last" is np-1
ulfm_victims() {   # spec np
    local v=$1 np=$2
    echo "${v//last/$((np - 1))}"
}

case_ulfm() {   # name np mode victims [mpiexec args...]
    local name=$1 np=$2 mode=$3 spec=$4 why= r want=0 v p; shift 4
    v=$(ulfm_victims "$spec" "$np")
    [ "$v" != - ] && want=137
    start_job "$np" --with-ft ulfm "$@" "$ulfm_prog" "$mode" "$v"
    finish_job $((bound + 60))
    if [ "$rc" != "$want" ]; then
        why="exit code $rc, want $want"
    elif grep -q ULFM-FAIL "$dir/out"; then
        why="$(grep -c ULFM-FAIL "$dir/out") failed check(s): $(grep -m1 ULFM-FAIL "$dir/out")"
    else
        for r in $(seq 0 $((np - 1))); do
            [[ ",$v," == *",$r,"* ]] && continue
            grep -q "^rank $r: ULFM-OK" "$dir/out" || { why="rank $r did not finish its checks"; break; }
        done
    fi
    if [ -z "$why" ]; then
        for p in $(session_procs "$job_pid"); do
            alive "$p" && { why="processes left running"; kill_session "$job_pid"; break; }
        done
    fi
    job_pid=
    report "$name np=$np" "$([ -z "$why" ] && echo 1 || echo 0)" "$why"
}

# examples/elastic_sgd with ranks killing themselves at given steps: the
# survivors must finish with the checked result ("OK:"), the job ends 137.
case_elastic() {   # np kills...
    local np=$1 why=; shift
    start_job "$np" --with-ft ulfm "$PWD/examples/elastic_sgd" 120 "$@"
    finish_job $((bound + 90))
    if [ "$rc" != 137 ]; then
        why="exit code $rc, want 137"
    elif ! grep -q "^OK: 120 steps" "$dir/out" || grep -q FAILED "$dir/out"; then
        why="no checked result: $(grep -m1 -E 'OK|FAILED' "$dir/out")"
    fi
    job_pid=
    report "ulfm-elastic np=$np kill $*" "$([ -z "$why" ] && echo 1 || echo 0)" "$why"
}

run_ulfm_cases() {
    local np
    [ -x "$ulfm_prog" ] || { report "ulfm" 0 "$ulfm_prog not built"; return; }
    for np in $ulfm_nps; do
        want ulfm-p2p && case_ulfm ulfm-p2p "$np" p2p 1
        want ulfm-p2p0 && case_ulfm ulfm-p2p0 "$np" p2p 0
        want ulfm-anysource && case_ulfm ulfm-anysource "$np" anysource last
        want ulfm-revoke && case_ulfm ulfm-revoke "$np" revoke 1
        want ulfm-revoke-nofail && case_ulfm ulfm-revoke-nofail "$np" revoke -
        want ulfm-agree && case_ulfm ulfm-agree "$np" agree 0
        want ulfm-agree-during && case_ulfm ulfm-agree-during "$np" agree_during 1
        want ulfm-agree-coord && case_ulfm ulfm-agree-coord "$np" agree_coord 0 \
            -x UCMPI_FT_TEST_COORD_DIE=1
        want ulfm-shrink2 && case_ulfm ulfm-shrink2 "$np" shrink 1,2
        want ulfm-coll && case_ulfm ulfm-coll "$np" coll 1
        want ulfm-coll0-p2p && case_ulfm ulfm-coll0-p2p "$np" coll 0 -x UCMPI_COLL_SHM=0
        want ulfm-pending && case_ulfm ulfm-pending "$np" pending last
        # the ucmpi_peer_failed MPI_T event reaches a survivor's callback
        want ulfm-mpit-event &&
            ulfm_prog=$PWD/test/fault/mpit_fail case_ulfm ulfm-mpit-event "$np" event last
        want ulfm-poll && case_ulfm ulfm-poll "$np" poll 1
        want ulfm-poll0 && case_ulfm ulfm-poll0 "$np" poll 0
        want ulfm-poll-revoke && case_ulfm ulfm-poll-revoke "$np" poll_revoke last
        want ulfm-poll-revoke-nofail && case_ulfm ulfm-poll-revoke-nofail "$np" poll_revoke -
        want ulfm-stop && case_ulfm ulfm-stop "$np" stop 1 --ft-stop-timeout 1
    done
    # the default stop timeout, and two ranks stopped (rank 0 among them)
    want ulfm-stop && case_ulfm ulfm-stop-default 4 stop last
    want ulfm-stop && case_ulfm ulfm-stop2 5 stop 0,3 --ft-stop-timeout 1
    if want ulfm-elastic && [ -x "$PWD/examples/elastic_sgd" ]; then
        case_elastic 4 0:20
        case_elastic 5 1:60 3:60
        case_elastic 8 7:119
        case_elastic 3 2:1 0:80
    fi
}
