#!/usr/bin/env bash
# Rerun the coherence experiment (issue 16; docs/coherence.md; 001 ch. 3):
# BL, W/L1, G-TSC-RC, G-TSC-SC, TC-RC, TC-SC on fermi16-gtsc (coherence.sweep),
# the lease sensitivity (lease.sweep), the simulator's own speed at 1 and 2
# host threads (speed step), a long run of the random coherence tester
# (cohrand step: COHRAND_RUNS seeds per system, default 64; CI runs 4), and
# the report beside the chapter's numbers.
#   bash bench/experiments/coherence/run.sh [OUT] [--size S] [--only "main lease speed cohrand"] [-j N]
# OUT defaults to out/coherence. Finished jobs are skipped, so an
# interrupted run resumes. Writes OUT/report.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$root/out/coherence size=small only="main lease speed cohrand" jobs=${J:-2}
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
gpusim=${GPUSIM:-$root/build/gpusim}
[ -x "$gpusim" ] || { echo "build first: cmake -S $root -B $root/build && cmake --build $root/build -j2" >&2; exit 2; }
export GPUSIM_CONFIG_DIR=${GPUSIM_CONFIG_DIR:-$root/configs}
mkdir -p "$out"
for s in $only; do
    case $s in
    main) f=coherence ;;
    lease) f=lease ;;
    speed | cohrand) continue ;;
    *) echo "run.sh: --only takes main, lease, speed, cohrand" >&2; exit 2 ;;
    esac
    sed -e "s|^sizes .*|sizes     = $size|" "$here/$f.sweep" > "$out/$f.sweep"
    "$gpusim" sweep "$out/$f.sweep" -o "$out/$f" -j "$jobs" --progress
done
case " $only " in
*" speed "*)
    # The simulator's own speed on the coherence set, G-TSC-RC and TC-RC, 1 and 2
    # host threads, one run at a time (wall time is the host object of the stats).
    mkdir -p "$out/speed"
    for w in barneshut pushrel wsteal vpr halo bfs; do
        for p in gtsc tc; do
            for t in 1 2; do
                f="$out/speed/$w-$p-t$t.json"
                [ -f "$f" ] || "$gpusim" run "$w" --size "$size" -c fermi16-gtsc -q -o sim.mode=timing \
                    -o coh.protocol=$p --threads $t --stats "$f"
            done
        done
    done ;;
esac
case " $only " in
*" cohrand "*)
    cohrand=${COHRAND:-$root/build/test_cohrand}
    [ -x "$cohrand" ] || { echo "run.sh: $cohrand missing (build the tests)" >&2; exit 2; }
    GS_COHRAND_RUNS=${COHRAND_RUNS:-64} "$cohrand" > "$out/cohrand.tap" || echo "run.sh: the random tester failed" >&2 ;;
esac
python3 "$here/report.py" "$out" > "$out/report.md"
echo "results: $out/report.md"
