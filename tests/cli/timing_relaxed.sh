#!/usr/bin/env bash
# CLI: relaxed mode (sync.relaxed, quantum 4L and 16L) in timing mode runs
# the workloads to verified results, is deterministic for any --threads, and
# its IPC difference from exact mode is reported (a diagnostic, not a bound:
# the error is measured by bench/speed).
source "$(dirname "$0")/../support/cli_lib.sh"
L=11432 # gtx480 lookahead: icnt.min_latency 8 x 1429 ps
ipc() { sed -n 's/^ *"ipc": \([0-9.e+-]*\),*$/\1/p' "$1" | head -1; }
for w in sgemm bfs; do
  "$GPUSIM" run $w --size tiny -q -o sim.mode=timing --threads 1 --stats "$TMP/$w-exact.json" >/dev/null 2>&1
  ok $? "$w: exact mode verified"
  for q in 4 16; do
    for t in 1 2; do
      "$GPUSIM" run $w --size tiny -q -o sim.mode=timing -o sync.relaxed=true -o sync.quantum=$((q * L))ps \
        --threads $t --stats "$TMP/$w-r$q-$t.json" >"$TMP/out" 2>&1
      ok $? "$w: relaxed quantum ${q}L, --threads $t verified"
    done
    cmp -s <(nohost "$TMP/$w-r$q-1.json") <(nohost "$TMP/$w-r$q-2.json")
    ok $? "$w: relaxed ${q}L statistics identical for --threads 1 and 2"
    e=$(ipc "$TMP/$w-exact.json"); r=$(ipc "$TMP/$w-r$q-1.json")
    [ -n "$e" ] && [ -n "$r" ]; ok $? "$w: both runs report IPC"
    echo "# $w relaxed ${q}L: IPC $r vs exact $e ($(awk -v a="$r" -v b="$e" 'BEGIN{printf "%+.2f%%", (a-b)/b*100}'))"
  done
done
finish
