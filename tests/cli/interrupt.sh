#!/usr/bin/env bash
# CLI: SIGINT/SIGTERM stop the run at a quantum boundary; the statistics
# gathered so far are written with "complete": false and the exit code is 1.
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
finish
