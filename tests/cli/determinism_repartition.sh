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
wl a1 --threads 1 -o sync.adapt_window=100us; ok $? "bfs: --threads 1, 100 us windows verifies"
wl a2 --threads 2 -o sync.adapt_window=100us; ok $? "bfs: adaptive, 100 us windows, --threads 2 verifies"
cmp -s <(nohost "$TMP/a1.json") <(nohost "$TMP/a2.json"); ok $? "bfs: adaptive --threads 2 equals --threads 1"
wl auto --threads auto -o sync.adapt_window=100us; ok $? "bfs: --threads auto verifies"
cmp -s <(nohost "$TMP/a1.json") <(nohost "$TMP/auto.json"); ok $? "bfs: --threads auto equals --threads 1"
expect_exit 2 "--threads takes a number or auto" -- "$GPUSIM" synth --threads many
contains "$TMP/err" "'auto'" "the message names auto"
finish
