#!/usr/bin/env bash
# CLI: gpusim sweep (docs/experiments.md). --dry-run, bad sweep files (exit 2,
# nothing written), a local run into OUT/ (layout, sweep.json, job JSON equal
# to a direct `gpusim run --stats`), resume (a rerun runs nothing), the same
# job reached from a second sweep file, failure capture (exit 1 and exit 2
# jobs recorded with status and stderr tail, the rest still done, failed
# jobs retried on rerun) and the per-job timeout.
source "$(dirname "$0")/../support/cli_lib.sh"

SW=$TMP/s.sweep
cat >"$SW" <<'EOF'
# two workloads x two variants, functional mode, tiny
preset    = gtx480
variant.gto = none
variant.lrr = sched.policy=lrr
workloads = vectoradd bfs
sizes     = tiny
EOF

# --- dry run
expect_exit 0 "dry-run" -- "$GPUSIM" sweep "$SW" --dry-run
contains "$TMP/out" "4 jobs = 2 workloads x 1 sizes x 1 seeds x 2 variants (4 distinct), baseline gto" "dry-run: grid summary"
[ "$(grep -c '^  [a-z]*-tiny-s1-[0-9a-f]\{16\} ' "$TMP/out")" -eq 4 ]; ok $? "dry-run: lists 4 jobs with ids"
[ ! -e "$TMP/o" ]; ok $? "dry-run without -o writes nothing"
cp "$TMP/out" "$TMP/dry.txt"
id_lrr=$(awk '$2 == "bfs" && $5 == "lrr" {print $1}' "$TMP/dry.txt")
[ -n "$id_lrr" ]; ok $? "dry-run: the bfs/lrr job has an id ($id_lrr)"

# --- bad sweep files: exit 2, file:line: key, nothing created
bad() { # bad <name> <expected message> <description> <<< file text
  cat >"$TMP/$1"
  expect_exit 2 "$3: exit 2" -- "$GPUSIM" sweep "$TMP/$1" -o "$TMP/bad_out"
  contains "$TMP/err" "$TMP/$1$2" "$3: message names file, line and key"
  [ ! -e "$TMP/bad_out" ]; ok $? "$3: nothing written"
}
bad k.sweep ":4: unknown key 'workload' (did you mean 'workloads'?)" "unknown key" <<'EOF'
preset = gtx480
variant.a = none

workload = bfs
EOF
bad w.sweep ":3: key 'workloads': unknown workload 'bfz' (did you mean 'bfs'?)" "unknown workload" <<'EOF'
preset = gtx480
variant.a = none
workloads = bfz
EOF
bad p.sweep ":1: key 'preset': unknown preset 'gtx48'" "unknown preset" <<'EOF'
preset = gtx48
variant.a = none
workloads = bfs
EOF
bad v.sweep ":2: key 'variant.a': unknown key 'sched.polcy'" "variant overriding an unknown key" <<'EOF'
preset = gtx480
variant.a = sched.polcy=gto
workloads = bfs
EOF
bad vb.sweep ":2: key 'variant.a': key 'sched.policy': value 'best'" "variant with a bad value" <<'EOF'
preset = gtx480
variant.a = sched.policy=best
workloads = bfs
EOF
bad e.sweep ":2: key 'workloads': tag [no-such-tag] matches no workload" "empty grid (tag matching nothing)" <<'EOF'
preset = gtx480
workloads = [no-such-tag]
variant.a = none
EOF
expect_exit 2 "missing sweep file: exit 2" -- "$GPUSIM" sweep "$TMP/none.sweep" -o "$TMP/bad_out"
expect_exit 2 "no -o: exit 2" -- "$GPUSIM" sweep "$SW"
expect_exit 2 "--chunk without --slurm/--only-chunk: exit 2" -- "$GPUSIM" sweep "$SW" -o "$TMP/bad_out" --chunk 2
[ ! -e "$TMP/bad_out" ]; ok $? "usage errors write nothing"

# --- run
expect_exit 0 "run: 4 jobs, 2 at a time" -- "$GPUSIM" sweep "$SW" -o "$TMP/o" -j 2
contains "$TMP/out" "4 jobs to run, 0 already done" "run: says what it runs"
[ "$(ls "$TMP/o/jobs" | grep -c '\.json$')" -eq 4 ] && [ -z "$(ls "$TMP/o/jobs" | grep -v '^[a-z]*-tiny-s1-[0-9a-f]*\.json$')" ]
ok $? "OUT/jobs holds exactly the 4 results"
[ -z "$(ls -A "$TMP/o/tmp")" ]; ok $? "OUT/tmp is empty after the run"
good=0
for f in "$TMP/o/jobs"/*.json; do
  grep -q '"format": "gpusim-stats-1"' "$f" && grep -q '"complete": true' "$f" && [ "$(sed '/^$/d' "$f" | tail -n 1)" = "}" ] || good=1
done
ok $good "every job file is a complete stats document"
"$GPUSIM" run bfs --size tiny --seed 1 -c gtx480 -o sched.policy=lrr --threads 1 --pin none -q --stats "$TMP/direct.json"
cmp -s <(nohost "$TMP/direct.json") <(nohost "$TMP/o/jobs/$id_lrr.json"); ok $? "a job's JSON equals gpusim run --stats (all but host)"
M=$TMP/o/sweep.json
contains "$M" '"format": "gpusim-sweep-1"' "sweep.json: format"
contains "$M" '"baseline": "gto"' "sweep.json: baseline"
contains "$M" '"name": "lrr"' "sweep.json: variants"
contains "$M" "\"id\": \"$id_lrr\"" "sweep.json: job ids"
contains "$M" "\"file\": \"jobs/$id_lrr.json\"" "sweep.json: job file"
contains "$M" '"sched.policy=lrr"' "sweep.json: overrides"

# --- resume: nothing new runs, finished files untouched
before=$(stat -c '%i %Y' "$TMP/o/jobs"/*.json)
expect_exit 0 "rerun" -- "$GPUSIM" sweep "$SW" -o "$TMP/o" -j 2
contains "$TMP/out" "0 jobs to run, 4 already done" "rerun runs nothing"
[ "$before" = "$(stat -c '%i %Y' "$TMP/o/jobs"/*.json)" ]; ok $? "rerun leaves the results untouched"
expect_exit 0 "--collect: all done" -- "$GPUSIM" sweep "$SW" -o "$TMP/o" --collect
contains "$TMP/out" "4 done, 0 failed, 0 pending" "--collect counts"
expect_exit 0 "--dry-run with -o" -- "$GPUSIM" sweep "$SW" -o "$TMP/o" --dry-run
contains "$TMP/out" "4 done, 0 failed, 0 pending" "--dry-run shows the state"

# --- the same job from another sweep file is the same file
cat >"$TMP/other.sweep" <<'EOF'
preset = gtx480
workloads = bfs
sizes = tiny
variant.round_robin = sched.policy=lrr   # bfs/lrr again, under another name
variant.small_l1 = l1d.size=16K l1d.assoc=2
EOF
expect_exit 0 "second sweep into the same OUT" -- "$GPUSIM" sweep "$TMP/other.sweep" -o "$TMP/o" -j 2
contains "$TMP/out" "1 jobs to run, 1 already done" "the shared job is not run again"
[ "$(ls "$TMP/o/jobs" | wc -l)" -eq 5 ]; ok $? "one new result"

# --- failure capture
cat >"$TMP/f.sweep" <<'EOF'
preset = gtx480
workloads = vectoradd prodcons
sizes = tiny
variant.ok = none
variant.small_blocks = sm.max_block_threads=32   # launches refused: exit 2
variant.watchdog = sim.func_watchdog=1           # prodcons spins: exit 1
EOF
"$GPUSIM" sweep "$TMP/f.sweep" --dry-run >"$TMP/fdry.txt"
fid() { awk -v w="$1" -v v="$2" '$2 == w && $5 == v {print $1}' "$TMP/fdry.txt"; }
expect_exit 1 "sweep with failing jobs: exit 1" -- "$GPUSIM" sweep "$TMP/f.sweep" -o "$TMP/f" -j 2
F2=$TMP/f/jobs/$(fid vectoradd small_blocks).failed.json
F1=$TMP/f/jobs/$(fid prodcons watchdog).failed.json
[ -f "$F2" ] && [ -f "$F1" ]; ok $? "failed jobs recorded as <id>.failed.json"
contains "$F2" '"exit_status": 2' "exit-2 job: exit status"
contains "$F2" '"reason": "exit"' "exit-2 job: reason"
contains "$F2" 'sm.max_block_threads' "exit-2 job: stderr tail"
contains "$F1" '"exit_status": 1' "exit-1 job: exit status"
contains "$F1" 'GS_ERR_WATCHDOG' "exit-1 job: stderr tail"
contains "$F1" '"command": [' "failure record: the command"
for j in "vectoradd ok" "vectoradd watchdog" "prodcons ok"; do
  set -- $j
  [ -f "$TMP/f/jobs/$(fid "$1" "$2").json" ]; ok $? "the other jobs still ran: $1/$2 done"
done
contains "$TMP/err" "failed: exit 2" "stderr names the failure"
expect_exit 1 "--collect with failures: exit 1" -- "$GPUSIM" sweep "$TMP/f.sweep" -o "$TMP/f" --collect
contains "$TMP/out" "3 done, 3 failed, 0 pending" "--collect counts failures"
expect_exit 1 "rerun retries the failed jobs (which fail again)" -- "$GPUSIM" sweep "$TMP/f.sweep" -o "$TMP/f" -j 2
contains "$TMP/out" "3 jobs to run, 3 already done" "only the failed jobs rerun"

# --- per-job timeout: stopped with SIGTERM, recorded as timeout
cat >"$TMP/t.sweep" <<'EOF'
preset = gtx480
overrides = sim.mode=timing
workloads = nqu
sizes = small
variant.a = none
timeout = 1s
EOF
expect_exit 1 "a job over the timeout fails the sweep" -- "$GPUSIM" sweep "$TMP/t.sweep" -o "$TMP/t"
T=$(ls "$TMP/t/jobs"/*.failed.json 2>/dev/null | head -1)
[ -n "$T" ]; ok $? "timed-out job recorded"
[ -n "$T" ] && contains "$T" '"reason": "timeout"' "reason timeout"
[ -z "$(ls "$TMP/t/jobs" | grep -v 'failed.json$')" ]; ok $? "no result for it"
finish
