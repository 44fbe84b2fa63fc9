#!/usr/bin/env bash
# CLI: racetrack-memory register file (rf.policy = rm) and RMWS
# (sched.policy = rmws), docs/racetrack.md, issue 15: the keys are listed,
# bad values are refused with file:line:key (exit 2), workloads verify with
# every layout and write-buffer policy (values never depend on timing),
# statistics are identical for 1, 2 and 4 host threads and with
# sim.tick_every_cycle, and a profiling run's move counts feed the liang
# layout (the same layout for any thread count of the profiling run).
source "$(dirname "$0")/../support/cli_lib.sh"

expect_exit 0 "config --list works" -- "$GPUSIM" config --list
for k in rf.rm_ports rf.rm_domains rf.rm_layout rf.rm_read_ticks rf.rm_write_ticks rf.rm_shift_ticks \
    rf.rm_preshift rf.rm_wb_entries rf.rm_wb_policy rf.rm_wb_forward rf.rm_wb_void rf.rm_profile_out \
    rf.rm_profile_in rf.rm_group rf.rm_arrange energy.rf.wb_read_pj energy.rf.wb_write_pj; do
    contains "$TMP/out" "$k" "config --list shows $k"
done

cat >"$TMP/bad.cfg" <<'CFG'
include = fermi15-rf.cfg
rf.policy = rm
rf.rm_ports = 3
rf.rm_layout = spiral
CFG
expect_exit 2 "bad racetrack values fail with exit 2" -- "$GPUSIM" config --show "$TMP/bad.cfg"
contains "$TMP/err" "bad.cfg:4" "layout error has file:line"
contains "$TMP/err" "rf.rm_layout" "layout error names the key"
cat >"$TMP/ports.cfg" <<'CFG'
include = fermi15-rf.cfg
rf.policy = rm
rf.rm_ports = 3
CFG
expect_exit 2 "3 ports on 64 domains are refused" -- "$GPUSIM" config --show "$TMP/ports.cfg"
contains "$TMP/err" "rf.rm_ports" "... naming rf.rm_ports"
expect_exit 2 "fewer domains than rows are refused" -- "$GPUSIM" config --show fermi15-rf -o rf.policy=rm \
    -o rf.rm_domains=32
contains "$TMP/err" "rf.rm_domains" "... naming rf.rm_domains"
expect_exit 2 "liang without a profile is refused" -- "$GPUSIM" config --show fermi15-rf -o rf.policy=rm \
    -o rf.rm_layout=liang
contains "$TMP/err" "rf.rm_layout" "... naming rf.rm_layout"
expect_exit 2 "liang with a missing profile is refused" -- "$GPUSIM" config --show fermi15-rf -o rf.policy=rm \
    -o rf.rm_layout=liang -o rf.rm_profile_in="$TMP/nothing"
contains "$TMP/err" "rf.rm_profile_in" "... naming rf.rm_profile_in"
expect_exit 2 "warp_reg_remap with 3 schedulers on 16 banks is refused" -- "$GPUSIM" config --show fermi15-rf \
    -o rf.policy=rm -o rf.rm_layout=warp_reg_remap -o sm.n_sched=3
contains "$TMP/err" "warp_reg_remap" "... saying why"

same_stats() {
    python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(0 if a["stats"] == b["stats"] and a.get("energy") == b.get("energy") else 1)
PY
}

MAO="-c fermi15-rf -o sim.mode=timing -o rf.clock_mult=2 -o rf.policy=rm"
LIANG="-c fermi15-rf-lrr -o sim.mode=timing -o rf.policy=rm -o rf.rm_ports=8 -o rf.rm_write_ticks=1 \
 -o rf.rm_wb_policy=priority -o rf.rm_wb_forward=false -o rf.rm_wb_void=false -o rf.rm_preshift=true"
# Values never change: every layout and write-buffer policy verifies.
for w in hotspot sgemm bfs histo backprop lud; do
    for v in "-o rf.rm_layout=original -o rf.rm_wb_entries=0" "-o sched.policy=rmws" \
        "-o rf.rm_layout=warp_reg_remap -o sm.n_sched=2 -o sched.policy=rmws"; do
        expect_exit 0 "$w verifies (Mao, $v)" -- "$GPUSIM" run $w --size tiny -q $MAO $v --threads 1
    done
    expect_exit 0 "$w verifies (Liang: preshift, priority write buffer)" -- "$GPUSIM" run $w --size tiny -q $LIANG \
        -o rf.rm_layout=original --threads 1
done
# Determinism: 1, 2, 4 threads and tick_every_cycle.
for w in hotspot bfs; do
    for v in "$MAO -o sched.policy=rmws" "$LIANG -o rf.rm_layout=original"; do
        tag=$(echo "$v" | md5sum | cut -c1-6)
        expect_exit 0 "$w ($tag), 1 thread" -- "$GPUSIM" run $w --size tiny -q $v --threads 1 --stats "$TMP/$w.$tag.1.json"
        expect_exit 0 "$w ($tag), 2 threads" -- "$GPUSIM" run $w --size tiny -q $v --threads 2 --stats "$TMP/$w.$tag.2.json"
        expect_exit 0 "$w ($tag), 4 threads" -- "$GPUSIM" run $w --size tiny -q $v --threads 4 --stats "$TMP/$w.$tag.4.json"
        expect_exit 0 "$w ($tag), every cycle ticked" -- "$GPUSIM" run $w --size tiny -q $v -o sim.tick_every_cycle=true \
            --threads 1 --stats "$TMP/$w.$tag.t.json"
        same_stats "$TMP/$w.$tag.1.json" "$TMP/$w.$tag.2.json"; ok $? "$w ($tag): identical for 1 and 2 threads"
        same_stats "$TMP/$w.$tag.1.json" "$TMP/$w.$tag.4.json"; ok $? "$w ($tag): identical for 1 and 4 threads"
        same_stats "$TMP/$w.$tag.1.json" "$TMP/$w.$tag.t.json"; ok $? "$w ($tag): identical with sim.tick_every_cycle"
    done
    grep -q '"sm.oc.rm_shift_steps"' "$TMP/$w.$tag.1.json"; ok $? "$w: racetrack statistics are reported"
done
# The SRAM default reports no racetrack statistic.
expect_exit 0 "hotspot with SRAM" -- "$GPUSIM" run hotspot --size tiny -q -c fermi15-rf -o sim.mode=timing \
    --stats "$TMP/sram.json"
grep -q '"sm.oc.rm_' "$TMP/sram.json"; ok $((! $?)) "SRAM: no racetrack statistic"
# Profile -> liang: the profile is the same for 1 and 3 threads; the mapped
# run verifies, is deterministic and predicts fewer shifts than DIRECT.
for t in 1 3; do
    expect_exit 0 "hotspot profiling run, $t threads" -- "$GPUSIM" run hotspot --size tiny -q $LIANG \
        -o rf.rm_layout=original -o rf.rm_profile_out="$TMP/prof$t" --threads $t
done
cat "$TMP"/prof1.sm* >"$TMP/p1.all"; cat "$TMP"/prof3.sm* >"$TMP/p3.all"
cmp -s "$TMP/p1.all" "$TMP/p3.all"; ok $? "profiles identical for 1 and 3 threads"
contains "$TMP/prof1.sm0" "gpusim-rm-moves 1" "the profile has its header"
expect_exit 0 "hotspot with the liang layout, 1 thread" -- "$GPUSIM" run hotspot --size tiny -q $LIANG \
    -o rf.rm_layout=liang -o rf.rm_profile_in="$TMP/prof1" --threads 1 --stats "$TMP/liang1.json"
expect_exit 0 "hotspot with the liang layout, 2 threads" -- "$GPUSIM" run hotspot --size tiny -q $LIANG \
    -o rf.rm_layout=liang -o rf.rm_profile_in="$TMP/prof1" --threads 2 --stats "$TMP/liang2.json"
same_stats "$TMP/liang1.json" "$TMP/liang2.json"; ok $? "liang: identical for 1 and 2 threads"
python3 - "$TMP/liang1.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["stats"]["total"]
d, l = t["sm.oc.rm_pred_direct"]["total"], t["sm.oc.rm_pred_liang"]["total"]
print(f"# predicted shifts DIRECT {d}, liang {l}")
sys.exit(0 if 0 < l < d else 1)
PY
ok $? "liang: the profile predicts fewer shift steps than DIRECT"
"$GPUSIM" run sgemm --size tiny -q $LIANG -o rf.rm_layout=liang -o rf.rm_profile_in="$TMP/prof1" --threads 1 \
    >"$TMP/out" 2>"$TMP/err"
ok $((! $?)) "sgemm with hotspot's profile fails"
contains "$TMP/err" "rf.rm_profile_in" "... naming rf.rm_profile_in"
finish
