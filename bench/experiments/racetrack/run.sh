#!/usr/bin/env bash
# Rerun the racetrack register-file experiments (issue 15; docs/racetrack.md):
#   mao   - seed 000 ch. 3: SRAM+GTO, 4P+GTO, register remapping, RMWS on the
#           chapter's workloads that the suite has (classes C1/C2/C3), then
#           on a subset the port sweep (1..64), the write-buffer sweep (16..256
#           entries) and the dual/quad schedulers with and without
#           warp-register remapping;
#   liang - seed 002: 128 KB SRAM, 256 KB ideal RM, plain RM, +TLP, +mapping,
#           +preshift on hotspot, btree, histo, mrig, with the TLP driver
#           (P_cache, P_ideal, P_rm for every CTA cap 1..6) and the
#           profiling run that feeds the liang layout.
# Usage: bash bench/experiments/racetrack/run.sh [OUT] [--only mao|liang]
#        [--size tiny|small|medium] [--sweep-size tiny|small|medium] [-j N]
# --size is the size of the main comparisons and the TLP driver (default
# small); --sweep-size that of Mao's port, write-buffer and scheduler sweeps
# (default tiny, to keep the whole experiment near an hour on 2 cores).
# OUT defaults to out/racetrack. Finished runs are skipped (resume); a
# failed run leaves OUT/jobs/NAME.err. Then: python3 summary.py OUT > OUT/report.md
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$root/out/racetrack
only="mao liang" size=small ssize=tiny jobs=${J:-2}
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
while [ $# -gt 0 ]; do
    case $1 in
    --only) only=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --sweep-size) ssize=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
gpusim=${GPUSIM:-$root/build/gpusim}
[ -x "$gpusim" ] || { echo "build first: cmake -S $root -B $root/build && cmake --build $root/build -j2" >&2; exit 2; }
export GPUSIM_CONFIG_DIR=${GPUSIM_CONFIG_DIR:-$root/configs}
mkdir -p "$out/jobs" "$out/prof"
echo "size=$size sweep-size=$ssize" > "$out/params"

queue=$out/queue.txt
: > "$queue"
# job NAME WORKLOAD ARGS...: one simulation at --size, statistics in
# jobs/NAME.json; sjob: the same at --sweep-size
job() {
    local name=$1 wl=$2; shift 2
    [ -s "$out/jobs/$name.json" ] && return 0
    printf '%s\t%s\t%s\t%s\n' "$name" "$wl" "$size" "$*" >> "$queue"
}
sjob() {
    local name=$1 wl=$2; shift 2
    [ -s "$out/jobs/$name.json" ] && return 0
    printf '%s\t%s\t%s\t%s\n' "$name" "$wl" "$ssize" "$*" >> "$queue"
}
run_queue() {
    [ -s "$queue" ] || return 0
    echo "racetrack: $(wc -l < "$queue") runs, $jobs at a time" >&2
    # shellcheck disable=SC2016
    tr '\n' '\0' < "$queue" | xargs -0 -P "$jobs" -I{} bash -c '
        IFS=$'"'"'\t'"'"' read -r name wl sz args <<< "$1"
        if "$2" run "$wl" --size "$sz" -q --threads 1 $args --stats "$4/jobs/$name.tmp" 2> "$4/jobs/$name.err"; then
            mv "$4/jobs/$name.tmp" "$4/jobs/$name.json"; rm -f "$4/jobs/$name.err"
        else echo "racetrack: $name failed (see $4/jobs/$name.err)" >&2; fi' _ {} "$gpusim" unused "$out"
    : > "$queue"
}

# ---------------------------------------------------------------- mao (000 ch. 3)
# Energy of the racetrack variants: 000 Table 3 4P RM and write buffer.
MAO_E="-o energy.rf.read_pj=59.34 -o energy.rf.write_pj=50.49 -o energy.rf.shift_pj=1.8"
MAO_BASE="-c fermi15-rf -o sim.mode=timing -o rf.clock_mult=2"
MAO_RM="$MAO_BASE -o rf.policy=rm $MAO_E"
MAO_WB0="-o rf.rm_wb_entries=0 -o energy.rf.static_mw=0.27"
MAO_WB="-o energy.rf.static_mw=1.21"
# class C1 / C2 / C3 of the chapter's Table 1 that the suite has
MAO_C1="cp mriq hotspot srad blackscholes scalarprod"
MAO_C2="nn lbm bfs kmeans pathfinder streamcluster histo vectoradd"
MAO_C3="backprop reduction transpose"
MAO_SWEEP="cp mriq hotspot srad blackscholes scalarprod"
if [[ " $only " == *" mao "* ]]; then
    for w in $MAO_C1 $MAO_C2 $MAO_C3; do
        job "mao.sram_gto.$w" $w $MAO_BASE
        job "mao.p4_gto.$w" $w $MAO_RM -o rf.rm_layout=original $MAO_WB0
        job "mao.remap.$w" $w $MAO_RM -o rf.rm_layout=remap $MAO_WB0
        job "mao.rmws.$w" $w $MAO_RM -o rf.rm_layout=remap -o sched.policy=rmws $MAO_WB
    done
    for w in $MAO_SWEEP; do
        sjob "mao.ssram.$w" $w $MAO_BASE
        for p in 1 2 4 8 16 32 64; do
            sjob "mao.ports$p.$w" $w $MAO_RM -o rf.rm_layout=remap -o sched.policy=rmws $MAO_WB -o rf.rm_ports=$p
        done
        for e in 1 2 4 8 16; do
            sjob "mao.wb$((e * 16)).$w" $w $MAO_RM -o rf.rm_layout=remap -o sched.policy=rmws $MAO_WB \
                -o rf.rm_wb_entries=$e
        done
        for s in 2 4; do
            sjob "mao.s${s}_gto.$w" $w $MAO_BASE -o sm.n_sched=$s
            sjob "mao.s${s}_rmws.$w" $w $MAO_RM -o sm.n_sched=$s -o rf.rm_layout=remap -o sched.policy=rmws $MAO_WB
            sjob "mao.s${s}_rmws_wrr.$w" $w $MAO_RM -o sm.n_sched=$s -o rf.rm_layout=warp_reg_remap \
                -o sched.policy=rmws $MAO_WB
        done
    done
fi

# ---------------------------------------------------------------- liang (002)
# Energy of the SRAM baseline: 002 Table 3 (the RM preset has its own).
LI_SRAM="-c fermi15-rf-lrr -o sim.mode=timing -o energy.rf.read_pj=218.88 -o energy.rf.write_pj=57.28 \
 -o energy.rf.static_mw=12.31"
LI_RM="-c fermi15-rm-lrr -o sim.mode=timing"
LI_WL="hotspot btree histo mrig"
if [[ " $only " == *" liang "* ]]; then
    for w in $LI_WL; do
        job "li.sram.$w" $w $LI_SRAM
        job "li.ideal.$w" $w $LI_RM -o rf.rm_layout=ideal
        job "li.plain.$w" $w $LI_RM -o rf.rm_preshift=false
        # the TLP driver (spec 2.6): three profiles per CTA cap N; every CTA
        # of these four workloads has 256 threads, so at most 1536 / 256 = 6
        # are resident and caps 7 and 8 would repeat cap 6
        for n in 1 2 3 4 5 6; do
            job "li.tlp_cache$n.$w" $w $LI_RM -o sm.max_cta=$n -o rf.rm_layout=ideal
            job "li.tlp_ideal$n.$w" $w $LI_RM -o sm.max_cta=$n -o rf.rm_layout=ideal -o l1d.perfect=true
            job "li.tlp_rm$n.$w" $w $LI_RM -o sm.max_cta=$n -o rf.rm_preshift=false -o l1d.perfect=true
        done
    done
fi
run_queue

if [[ " $only " == *" liang "* ]]; then
    # N* = argmax P(N) = P_cache - (P_ideal - P_rm), ties to the smaller N
    for w in $LI_WL; do
        n=$(python3 "$here/summary.py" "$out" --tlp "$w")
        echo "$n" > "$out/prof/$w.nstar"
        # profiling run at N*: DIRECT layout, no preshift (OQ-2), move counts recorded
        if [ ! -s "$out/prof/$w.done" ]; then
            "$gpusim" run $w --size $size -q --threads 1 $LI_RM -o sm.max_cta=$n -o rf.rm_preshift=false \
                -o rf.rm_profile_out="$out/prof/$w" --stats "$out/prof/$w.json" && echo ok > "$out/prof/$w.done"
        fi
        job "li.tlp.$w" $w $LI_RM -o sm.max_cta=$n -o rf.rm_preshift=false
        job "li.map.$w" $w $LI_RM -o sm.max_cta=$n -o rf.rm_preshift=false -o rf.rm_layout=liang \
            -o rf.rm_profile_in="$out/prof/$w"
        job "li.full.$w" $w $LI_RM -o sm.max_cta=$n -o rf.rm_layout=liang -o rf.rm_profile_in="$out/prof/$w"
        # sensitivity (OQ-8): a busy bank holds its access slot only when it starts
        job "li.plainfree.$w" $w $LI_RM -o rf.rm_preshift=false -o rf.busy_holds_slot=false
        job "li.fullfree.$w" $w $LI_RM -o sm.max_cta=$n -o rf.rm_layout=liang -o rf.rm_profile_in="$out/prof/$w" \
            -o rf.busy_holds_slot=false
    done
    run_queue
fi
git -C "$root" rev-parse --short HEAD > "$out/revision" 2>/dev/null || true
echo "results in $out; report: python3 $here/summary.py $out > $out/report.md" >&2
