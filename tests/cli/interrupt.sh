#!/usr/bin/env bash
# CLI: SIGINT/SIGTERM stop every run mode (synth and timing-mode runs at a
# quantum boundary, functional-mode runs after the current round of warp
# turns); the statistics gathered so far are written with "complete": false
# and the exit code is 1. A --stats path that cannot be written is refused
# before the simulation starts (exit 2).
source "$(dirname "$0")/../support/cli_lib.sh"

for sig in INT TERM; do
  "$GPUSIM" synth -q --threads 2 --pin none -o synth.jobs=64 -o synth.hops=1000000 \
      --stats "$TMP/$sig.json" >"$TMP/$sig.out" 2>"$TMP/$sig.err" &
  pid=$!
  sleep 1
  kill -s "$sig" "$pid"
  wait "$pid"; rc=$?
  [ "$rc" -eq 1 ]; ok $? "SIG$sig: exit code 1 (got $rc)"
  contains "$TMP/$sig.json" '"complete": false' "SIG$sig: stats written with complete: false"
  contains "$TMP/$sig.json" '"finish": "interrupted"' "SIG$sig: finish reason is interrupted"
  contains "$TMP/$sig.err" "interrupted" "SIG$sig: stderr says interrupted"
done

# gpusim run, timing and functional mode: runs of several seconds, stopped
# after 1 s (timing: nqu small; functional: lib medium).
for mode in timing functional; do
  if [ "$mode" = timing ]; then
    args=(run nqu --size small -c gtx480 -o sim.mode=timing --threads 2 --pin none)
  else
    args=(run lib --size medium -c gtx480)
  fi
  for sig in INT TERM; do
    "$GPUSIM" "${args[@]}" -q --stats "$TMP/$mode$sig.json" >"$TMP/$mode$sig.out" 2>"$TMP/$mode$sig.err" &
    pid=$!
    sleep 1
    kill -s "$sig" "$pid"
    wait "$pid"; rc=$?
    [ "$rc" -eq 1 ]; ok $? "run $mode, SIG$sig: exit code 1 (got $rc)"
    contains "$TMP/$mode$sig.json" '"complete": false' "run $mode, SIG$sig: stats written with complete: false"
    contains "$TMP/$mode$sig.err" "interrupted by signal" "run $mode, SIG$sig: stderr says interrupted"
    contains "$TMP/$mode$sig.err" "GS_ERR_INTERRUPTED" "run $mode, SIG$sig: the kernel stopped part-way"
  done
done
# A run that is not interrupted still says complete: true.
"$GPUSIM" run vectoradd --size tiny -q --stats "$TMP/whole.json"
contains "$TMP/whole.json" '"complete": true' "an uninterrupted run is complete"

# --stats that cannot be written: refused before anything runs.
for cmd in "run vectoradd --size tiny" "run vectoradd --size tiny -o sim.mode=timing" "synth"; do
  expect_exit 2 "$cmd --stats in a missing directory" -- "$GPUSIM" $cmd --stats "$TMP/no/such/dir/s.json"
  contains "$TMP/err" "cannot be written" "$cmd: says why"
  [ ! -s "$TMP/out" ]; ok $? "$cmd: refused before the simulation (no output)"
done
expect_exit 2 "--stats naming a directory" -- "$GPUSIM" run vectoradd --size tiny --stats "$TMP"
[ -z "$(ls "$TMP" | grep '\.tmp\.')" ]; ok $? "the probe leaves no temporary file"
finish
