#!/usr/bin/env bash
# CLI: timing mode's exit codes and messages: verified run (0), watchdog
# (1, with the warp dump on stderr), configuration the timing model refuses
# (2, naming the keys), --quiet printing nothing, and the stats JSON carrying
# the timing summary and the host thread count.
source "$(dirname "$0")/../support/cli_lib.sh"
T=(-o sim.mode=timing)
expect_exit 0 "vectoradd tiny in timing mode verifies" -- "$GPUSIM" run vectoradd --size tiny "${T[@]}" --threads 2 --stats "$TMP/s.json"
contains "$TMP/s.json" '"timing": {' "stats JSON has the timing summary"
contains "$TMP/s.json" '"mode": "timing"' "host object says timing mode"
contains "$TMP/s.json" '"threads": 2' "host object records 2 threads"
"$GPUSIM" run vectoradd --size tiny -q "${T[@]}" >"$TMP/q.out" 2>"$TMP/q.err"
[ ! -s "$TMP/q.out" ] && [ ! -s "$TMP/q.err" ]; ok $? "--quiet: nothing on stdout or stderr"
expect_exit 1 "watchdog stops a kernel that issues nothing for sim.watchdog cycles" -- \
  "$GPUSIM" run vectoradd --size tiny "${T[@]}" -o l2_to_dram.latency=5000 -o sim.watchdog=1000
contains "$TMP/err" "watchdog" "watchdog message"
contains "$TMP/err" "SIMT stack" "warp dump with SIMT stacks"
expect_exit 2 "clock.icnt != clock.core is refused in timing mode" -- \
  "$GPUSIM" run vectoradd --size tiny "${T[@]}" -o clock.icnt=1GHz
contains "$TMP/err" "clock.icnt" "message names clock.icnt"
expect_exit 2 "bad value is a configuration error" -- "$GPUSIM" run vectoradd --size tiny "${T[@]}" -o sm.pipe_clock_div=9
contains "$TMP/err" "sm.pipe_clock_div" "message names the key"
# a run cut short by sync.max_time says so (it is not a deadlock)
expect_exit 1 "a kernel stopped by sync.max_time fails" -- "$GPUSIM" run bfs --size tiny "${T[@]}" \
  -o sync.max_time=20us
contains "$TMP/err" "stopped at sync.max_time" "message names sync.max_time"
! grep -q "deadlock" "$TMP/err"; ok $? "... and does not call it a deadlock"
finish
