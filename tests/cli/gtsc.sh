#!/usr/bin/env bash
# CLI: G-TSC and TC coherence (coh.protocol = gtsc / tc, docs/coherence.md, issue 16):
# its keys are listed, bad values and incompatible settings are refused with
# file:line:key (exit 2), the workloads that communicate between CTAs (and a
# few others) verify under G-TSC RC and SC, statistics are identical for 1
# and 2 host threads and with sim.tick_every_cycle, and the default
# (coh.protocol = none) output has no G-TSC statistic. Timestamp resets
# (12-bit timestamps) give identical statistics for 1, 2 and 4 threads and
# with sim.tick_every_cycle.
source "$(dirname "$0")/../support/cli_lib.sh"

expect_exit 0 "config --list works" -- "$GPUSIM" config --list
for k in coh.protocol coh.gtsc_lease coh.gtsc_rd_extend coh.gtsc_ts_bits coh.tc_lease coh.tc_variant; do
    contains "$TMP/out" "$k" "config --list shows $k"
done

cat >"$TMP/bad.cfg" <<'CFG'
include = gtx480.cfg
coh.protocol = tardis
coh.gtsc_lease = 0
CFG
expect_exit 2 "bad coherence values fail with exit 2" -- "$GPUSIM" config --show "$TMP/bad.cfg"
contains "$TMP/err" "bad.cfg:2" "protocol error has file:line"
contains "$TMP/err" "coh.protocol" "protocol error names the key"
contains "$TMP/err" "bad.cfg:3" "lease error has file:line"
contains "$TMP/err" "coh.gtsc_lease" "lease error names the key"
cat >"$TMP/bits.cfg" <<'CFG'
include = gtx480.cfg
coh.gtsc_ts_bits = 8
CFG
expect_exit 2 "a timestamp width below 12 bits fails with exit 2" -- "$GPUSIM" config --show "$TMP/bits.cfg"
contains "$TMP/err" "bits.cfg:2" "width error has file:line"
contains "$TMP/err" "coh.gtsc_ts_bits" "width error names the key"
expect_exit 2 "12 bits with lease 20 are refused (no room for 64 leases above the reset point)" -- \
    "$GPUSIM" config --show gtx480 -o coh.protocol=gtsc -o coh.gtsc_ts_bits=12 -o coh.gtsc_lease=20
contains "$TMP/err" "coh.gtsc_ts_bits" "... naming coh.gtsc_ts_bits"
expect_exit 0 "12 bits with lease 15 are accepted" -- "$GPUSIM" config --show gtx480 -o coh.protocol=gtsc \
    -o coh.gtsc_ts_bits=12 -o coh.gtsc_lease=15
expect_exit 2 "gtsc without an L1 is refused" -- "$GPUSIM" config --show gtx480 -o coh.protocol=gtsc -o l1d.enable=false
contains "$TMP/err" "coh.protocol" "... naming coh.protocol"
expect_exit 2 "gtsc with a byte_mask L2 is refused" -- "$GPUSIM" config --show gtx480 -o coh.protocol=gtsc \
    -o l2.write_miss=byte_mask
contains "$TMP/err" "byte_mask" "... saying why"

same_stats() {
    python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(0 if a["stats"] == b["stats"] and a.get("timing") == b.get("timing") else 1)
PY
}

# The inter-CTA communication set (prodcons ... vpr) and four others.
for w in prodcons workqueue gridbarrier spinlock graphshare halo wsteal pushrel barneshut vpr bfs sgemm histo lud; do
    expect_exit 0 "$w verifies under G-TSC RC" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=gtsc --threads 1
done
for w in prodcons spinlock pushrel halo; do
    expect_exit 0 "$w verifies under G-TSC SC" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=gtsc -o sched.max_outstanding_mem_per_warp=1 --threads 1 \
        --stats "$TMP/$w.sc1.json"
    expect_exit 0 "$w under G-TSC SC, 2 threads" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=gtsc -o sched.max_outstanding_mem_per_warp=1 --threads 2 \
        --stats "$TMP/$w.sc2.json"
    same_stats "$TMP/$w.sc1.json" "$TMP/$w.sc2.json"; ok $? "$w: SC statistics identical for 1 and 2 threads"
done
for w in wsteal barneshut; do
    expect_exit 0 "$w under G-TSC, 1 thread" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc -o sim.mode=timing \
        -o coh.protocol=gtsc --threads 1 --stats "$TMP/$w.1.json"
    expect_exit 0 "$w under G-TSC, 2 threads" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc -o sim.mode=timing \
        -o coh.protocol=gtsc --threads 2 --stats "$TMP/$w.2.json"
    expect_exit 0 "$w under G-TSC, every cycle ticked" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=gtsc -o sim.tick_every_cycle=true --threads 1 --stats "$TMP/$w.t.json"
    same_stats "$TMP/$w.1.json" "$TMP/$w.2.json"; ok $? "$w: statistics identical for 1 and 2 threads"
    same_stats "$TMP/$w.1.json" "$TMP/$w.t.json"; ok $? "$w: statistics identical with sim.tick_every_cycle"
    grep -q '"l1d.gtsc_lease_misses"' "$TMP/$w.1.json"; ok $? "$w: G-TSC statistics are reported"
done
# TC-Weak (RC) and TC-Strong (SC)
for w in prodcons spinlock pushrel halo; do
    expect_exit 0 "$w verifies under TC-Weak" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=tc --threads 1 --stats "$TMP/$w.tw1.json"
    expect_exit 0 "$w under TC-Weak, 2 threads" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=tc --threads 2 --stats "$TMP/$w.tw2.json"
    same_stats "$TMP/$w.tw1.json" "$TMP/$w.tw2.json"; ok $? "$w: TC-Weak statistics identical for 1 and 2 threads"
    expect_exit 0 "$w verifies under TC-Strong SC" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=tc -o coh.tc_variant=strong -o sched.max_outstanding_mem_per_warp=1 \
        --threads 1 --stats "$TMP/$w.ts1.json"
    expect_exit 0 "$w under TC-Strong SC, every cycle ticked" -- "$GPUSIM" run $w --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=tc -o coh.tc_variant=strong -o sched.max_outstanding_mem_per_warp=1 \
        -o sim.tick_every_cycle=true --threads 1 --stats "$TMP/$w.tst.json"
    same_stats "$TMP/$w.ts1.json" "$TMP/$w.tst.json"; ok $? "$w: TC-Strong statistics identical with sim.tick_every_cycle"
done
grep -q '"l2.tc_write_stalls"' "$TMP/prodcons.ts1.json"; ok $? "TC statistics are reported"

# 4 host threads (more threads than this machine's cores: the engine stays exact)
for p in gtsc tc; do
    expect_exit 0 "barneshut under $p, 1 thread" -- "$GPUSIM" run barneshut --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=$p --threads 1 --stats "$TMP/bh.$p.1.json"
    expect_exit 0 "barneshut under $p, 4 threads" -- "$GPUSIM" run barneshut --size tiny -q -c fermi16-gtsc \
        -o sim.mode=timing -o coh.protocol=$p --threads 4 --stats "$TMP/bh.$p.4.json"
    same_stats "$TMP/bh.$p.1.json" "$TMP/bh.$p.4.json"; ok $? "barneshut under $p: statistics identical for 1 and 4 threads"
done

# timestamp resets (spec 2.11, NOTE(gtsc-reset)): 12-bit timestamps reset during pushrel (one kernel) and
# bfs (16 kernels, a reset inside one); the reset happens at a quantum end, so statistics must not depend
# on threads or on idle skipping
for w in pushrel bfs; do
    for t in 1 2 4; do
        expect_exit 0 "$w with 12-bit timestamps, $t threads" -- "$GPUSIM" run $w --size tiny -q \
            -c fermi16-gtsc -o sim.mode=timing -o coh.protocol=gtsc -o coh.gtsc_ts_bits=12 --threads $t \
            --stats "$TMP/rs.$w.$t.json"
    done
    expect_exit 0 "$w with 12-bit timestamps, every cycle ticked" -- "$GPUSIM" run $w --size tiny -q \
        -c fermi16-gtsc -o sim.mode=timing -o coh.protocol=gtsc -o coh.gtsc_ts_bits=12 \
        -o sim.tick_every_cycle=true --threads 1 --stats "$TMP/rs.$w.t.json"
    python3 - "$TMP/rs.$w.1.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["stats"]["total"]
sys.exit(0 if t["l2.gtsc_resets"]["total"] > 0 and t["l1d.gtsc_resets"]["total"] > 0 else 1)
PY
    ok $? "$w: the slices and the L1s reset their timestamps"
    same_stats "$TMP/rs.$w.1.json" "$TMP/rs.$w.2.json"; ok $? "$w resets: statistics identical for 1 and 2 threads"
    same_stats "$TMP/rs.$w.1.json" "$TMP/rs.$w.4.json"; ok $? "$w resets: statistics identical for 1 and 4 threads"
    same_stats "$TMP/rs.$w.1.json" "$TMP/rs.$w.t.json"; ok $? "$w resets: statistics identical with sim.tick_every_cycle"
done

expect_exit 0 "the default run" -- "$GPUSIM" run prodcons --size tiny -q -o sim.mode=timing --threads 1 \
    --stats "$TMP/none.json"
! grep -q '"l1d.gtsc_\|"l2.gtsc_\|"l1d.tc_\|"l2.tc_' "$TMP/none.json"; ok $? "no G-TSC or TC counter in the default output"
finish
