#!/usr/bin/env bash
# CLI: gpusim sweep under kill. (1) kill -9 of the sweep mid-run: its running
# job dies with it, OUT/jobs holds only complete results and no partial
# file, and a rerun runs the killed job and the rest but not the finished
# ones. (2) kill -9 of one job: recorded as failed with its signal, the
# sweep goes on, a rerun runs it. (3) SIGTERM to the sweep: the running job
# stops with partial statistics, is recorded as interrupted and rerun.
source "$(dirname "$0")/../support/cli_lib.sh"

# Jobs of about 1-2 s each (functional sgemm small), one at a time.
SW=$TMP/k.sweep
cat >"$SW" <<'EOF'
preset = gtx480
variant.base = none
workloads = sgemm
sizes = small
seeds = 1..4
EOF

# wait_for <seconds> <command...>: poll until the command succeeds.
wait_for() {
  local limit=$1; shift
  local end=$((SECONDS + limit))
  until "$@"; do
    [ $SECONDS -ge $end ] && return 1
    sleep 0.1
  done
}
n_results() { ls "$1/jobs" 2>/dev/null | grep -c '^[^.]*\.json$'; }
has_results() { [ "$(n_results "$1")" -ge "$2" ]; }
child_of() { cat "/proc/$1/task/$1/children" 2>/dev/null | awk '{print $1}'; }
has_child() { [ -n "$(child_of "$1")" ]; }
complete_files() { # every file in OUT/jobs is a whole document of its kind
  local f bad=0
  for f in "$1"/jobs/*; do
    case $f in
      *.failed.json) grep -q '"format": "gpusim-job-failure-1"' "$f" || bad=1 ;;
      *.json) grep -q '"complete": true' "$f" && [ "$(sed '/^$/d' "$f" | tail -n 1)" = "}" ] || bad=1 ;;
      *) bad=1 ;;
    esac
  done
  return $bad
}

# --- (1) kill -9 of the sweep
O=$TMP/o1
"$GPUSIM" sweep "$SW" -o "$O" -j 1 >"$TMP/s1.out" 2>&1 &
sp=$!
wait_for 120 has_results "$O" 1; ok $? "a first job finished"
wait_for 30 has_child "$sp"; ok $? "the next job is running"
job=$(child_of "$sp")
kill -9 "$sp"
wait "$sp" 2>/dev/null
wait_for 10 bash -c "! kill -0 $job 2>/dev/null"; ok $? "the running job died with the sweep"
done1=$(n_results "$O")
[ "$done1" -ge 1 ] && [ "$done1" -lt 4 ]; ok $? "killed mid-sweep ($done1 of 4 done)"
complete_files "$O"; ok $? "OUT/jobs holds only complete results (no partial, no temporary file)"
[ -n "$(ls -A "$O/tmp")" ]; ok $? "the dead sweep's work directory is left in OUT/tmp"
before=$(stat -c '%n %i %Y' "$O"/jobs/*.json)
expect_exit 0 "rerun after kill -9" -- "$GPUSIM" sweep "$SW" -o "$O" -j 1
contains "$TMP/out" "$((4 - done1)) jobs to run, $done1 already done" "rerun runs only the unfinished jobs"
[ "$(n_results "$O")" -eq 4 ]; ok $? "all 4 done after the rerun"
after=$(stat -c '%n %i %Y' $(echo "$before" | awk '{print $1}'))
[ "$before" = "$after" ]; ok $? "finished results were not rerun (same inode and time)"
[ -z "$(ls -A "$O/tmp")" ]; ok $? "the stale work directory was removed"

# --- (2) kill -9 of one job
O=$TMP/o2
"$GPUSIM" sweep "$SW" -o "$O" -j 1 >"$TMP/s2.out" 2>"$TMP/s2.err" &
sp=$!
wait_for 30 has_child "$sp"; ok $? "a job is running"
job=$(child_of "$sp")
kill -9 "$job"
wait "$sp"; rc=$?
[ "$rc" -eq 1 ]; ok $? "sweep with a killed job exits 1 (got $rc)"
F=$(ls "$O"/jobs/*.failed.json 2>/dev/null)
[ "$(echo "$F" | grep -c .)" -eq 1 ]; ok $? "one failure record"
contains "$F" '"signal": 9' "it names signal 9"
contains "$F" '"reason": "signal"' "reason: signal"
[ "$(n_results "$O")" -eq 3 ]; ok $? "the other 3 jobs ran"
complete_files "$O"; ok $? "no partial file"
expect_exit 0 "rerun" -- "$GPUSIM" sweep "$SW" -o "$O" -j 1
contains "$TMP/out" "1 jobs to run, 3 already done" "only the killed job reruns"
[ ! -e "$F" ] && [ "$(n_results "$O")" -eq 4 ]; ok $? "its failure record is replaced by the result"

# --- (3) SIGTERM to the sweep
O=$TMP/o3
"$GPUSIM" sweep "$SW" -o "$O" -j 1 >"$TMP/s3.out" 2>"$TMP/s3.err" &
sp=$!
wait_for 30 has_child "$sp"; ok $? "a job is running"
sleep 0.3
kill -TERM "$sp"
wait "$sp"; rc=$?
[ "$rc" -eq 1 ]; ok $? "SIGTERM: sweep exits 1 (got $rc)"
F=$(ls "$O"/jobs/*.failed.json 2>/dev/null | head -1)
[ -n "$F" ] && contains "$F" '"reason": "interrupted"' "the running job is recorded as interrupted"
contains "$TMP/s3.out" "not started" "the jobs not started are reported"
complete_files "$O"; ok $? "no partial file"
expect_exit 0 "rerun completes the sweep" -- "$GPUSIM" sweep "$SW" -o "$O" -j 1
[ "$(n_results "$O")" -eq 4 ] && [ -z "$(ls "$O"/jobs/*.failed.json 2>/dev/null)" ]; ok $? "all done, no failure left"
finish
