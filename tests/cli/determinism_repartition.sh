#!/usr/bin/env bash
# CLI: statistics (everything but "host") stay byte-identical to --threads 1
# whatever the adaptive engine decides: the debug re-partitioner
# (sync.debug_repartition_seed: random thread counts and owners at random
# quanta) on the synthetic model and on a real timing-mode workload with
# several kernel launches (bfs tiny), and the adaptive controller forced to
# decide every 100 us. --threads auto is accepted. docs/engine.md.
source "$(dirname "$0")/../support/cli_lib.sh"

heavy=(-o synth.jobs=8 -o synth.hops=150 -o synth.sm_partitions=16 -o synth.mem_partitions=8)
synth() { # synth <name> <args...>
  local name=$1; shift
  "$GPUSIM" synth -q --pin none --stats "$TMP/$name.json" "${heavy[@]}" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
}
for seed in 1 2; do
  synth "s$seed-1" --threads 1 -o sync.debug_repartition_seed=$seed; ok $? "synth, seed $seed: --threads 1 runs"
  for t in 2 3 8; do
    synth "s$seed-$t" --threads "$t" -o sync.debug_repartition_seed=$seed; ok $? "synth, seed $seed: --threads $t runs"
    cmp -s <(nohost "$TMP/s$seed-1.json") <(nohost "$TMP/s$seed-$t.json")
    ok $? "synth, seed $seed: statistics for --threads $t equal --threads 1"
    grep -Eq '"repartitions": [1-9]' "$TMP/s$seed-$t.json"; ok $? "synth, seed $seed, --threads $t: re-partitioned"
  done
done

wl() { # wl <name> <args...>: bfs tiny in timing mode
  local name=$1; shift
  "$GPUSIM" run bfs --size tiny -q -o sim.mode=timing --pin none --stats "$TMP/$name.json" "$@" \
    >"$TMP/$name.out" 2>&1
}
wl b1 --threads 1 -o sync.debug_repartition_seed=3; ok $? "bfs: --threads 1 verifies"
for t in 2 4; do
  wl "b$t" --threads "$t" -o sync.debug_repartition_seed=3; ok $? "bfs, random re-partitions: --threads $t verifies"
  cmp -s <(nohost "$TMP/b1.json") <(nohost "$TMP/b$t.json")
  ok $? "bfs, random re-partitions: statistics for --threads $t equal --threads 1"
  grep -Eq '"repartitions": [1-9]' "$TMP/b$t.json"; ok $? "bfs, --threads $t: re-partitioned"
done
# NOTE(ahead): threads that arrive at the barrier run their SMs' next
# quantum; it must change nothing, with the debug re-partitioner (which
# waits for a barrier without runs ahead, and makes runs ahead independent
# of host timing, so they are asserted), with a static split, and with
# 16-slot rings (hundreds of messages go through the overflow lists, which
# a thread about to run ahead drains in part)
# same A B: the files are equal but for "host" and the sync.* keys (engine options)
same() { python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in (a, b):
    d.pop("host")
    for k in [k for k in d["config"] if k.startswith("sync.")]:
        del d["config"][k]
sys.exit(a != b)' "$1" "$2"; }
# ahead F: some thread ran ahead, and each thread's ahead_seconds is within its barrier_seconds (and 0
# without runs), with the wait before the runs ahead within the rest
ahead() { python3 -c 'import json, sys
pt = json.load(open(sys.argv[1]))["host"]["per_thread"]
ok = sum(p["ahead_runs"] for p in pt) > 0
ok = ok and all(0 <= p["ahead_seconds"] <= p["barrier_seconds"] + 1e-6 and (p["ahead_seconds"] > 0) == (p["ahead_runs"] > 0) for p in pt)
ok = ok and all(0 <= p["ahead_wait_seconds"] <= p["barrier_seconds"] - p["ahead_seconds"] + 1e-6 for p in pt)
sys.exit(not ok)' "$1"; }
# fields F: host.per_thread has one object per thread with the fields docs/engine.md lists (Reports), as gpusim synth
fields() { python3 -c 'import json, sys
h = json.load(open(sys.argv[1]))["host"]
want = {"partitions", "cpu", "messages_sent", "messages_cross_thread", "messages_overflow", "quanta", "barrier_sleeps",
        "spin_aborts", "busy_seconds", "barrier_seconds", "steals", "ahead_runs", "ahead_seconds",
        "ahead_wait_seconds", "parked_seconds"}
pt = h["per_thread"]
sys.exit(not (len(pt) == h["threads"] and all(set(p) == want for p in pt) and all(p["quanta"] > 0 for p in pt)))' "$1"; }
fields "$TMP/b2.json"; ok $? "bfs, --threads 2: host.per_thread has every documented field"
fields "$TMP/s1-3.json"; ok $? "synth, --threads 3: host.per_thread has the same fields"
for t in 2 4; do ahead "$TMP/b$t.json"; ok $? "bfs, random re-partitions, --threads $t: SMs ran ahead"; done
wl h2 --threads 2 -o sync.adaptive=false; ok $? "bfs: static 2 threads verifies"
same "$TMP/b1.json" "$TMP/h2.json"; ok $? "bfs: static 2 threads equal --threads 1"
wl r3 --threads 3 -o sync.debug_repartition_seed=7 -o sync.ring_slots=16; ok $? "bfs: 3 threads, 16-slot rings verifies"
same "$TMP/b1.json" "$TMP/r3.json"; ok $? "bfs: 3 threads, 16-slot rings equal --threads 1"
ahead "$TMP/r3.json"; ok $? "bfs: 3 threads, 16-slot rings ran ahead"
grep -Eq '"messages_overflow": [1-9]' "$TMP/r3.json"; ok $? "bfs: 16-slot rings used the overflow lists"
wl n2 --threads 2 -o sync.adaptive=false -o sync.ahead=false; ok $? "bfs: sync.ahead=false verifies"
same "$TMP/b1.json" "$TMP/n2.json"; ok $? "bfs: sync.ahead=false equals --threads 1"
! ahead "$TMP/n2.json"; ok $? "bfs: sync.ahead=false runs nothing ahead"
python3 -c 'import json, sys
sys.exit(any(p["ahead_wait_seconds"] != 0 for p in json.load(open(sys.argv[1]))["host"]["per_thread"]))' "$TMP/n2.json"
ok $? "bfs: sync.ahead=false waits for nothing before runs ahead"
# the watchdog fires a serial step after it finds the stall (NOTE(ahead-gpu)):
# the statistics of the run it stops are the same with sync.ahead on or off
for v in "1 true" "2 true" "2 false"; do
  set -- $v
  "$GPUSIM" run vectoradd --size tiny -q -o sim.mode=timing --pin none --threads "$1" -o sync.adaptive=false \
    -o sync.ahead="$2" -o l2_to_dram.latency=5000 -o sim.watchdog=1000 --stats "$TMP/wd-$1-$2.json" \
    >/dev/null 2>"$TMP/wd-$1-$2.err"
  [ $? -eq 1 ] && grep -q "watchdog" "$TMP/wd-$1-$2.err"; ok $? "watchdog, --threads $1, sync.ahead=$2: stops the run"
done
for v in 2-true 2-false; do same "$TMP/wd-1-true.json" "$TMP/wd-$v.json"; ok $? "watchdog: statistics of $v equal 1-true"; done
wl a1 --threads 1 -o sync.adapt_window=100us; ok $? "bfs: --threads 1, 100 us windows verifies"
wl a2 --threads 2 -o sync.adapt_window=100us; ok $? "bfs: adaptive, 100 us windows, --threads 2 verifies"
cmp -s <(nohost "$TMP/a1.json") <(nohost "$TMP/a2.json"); ok $? "bfs: adaptive --threads 2 equals --threads 1"
wl auto --threads auto -o sync.adapt_window=100us; ok $? "bfs: --threads auto verifies"
cmp -s <(nohost "$TMP/a1.json") <(nohost "$TMP/auto.json"); ok $? "bfs: --threads auto equals --threads 1"
expect_exit 2 "--threads takes a number or auto" -- "$GPUSIM" synth --threads many
contains "$TMP/err" "'auto'" "the message names auto"
finish
