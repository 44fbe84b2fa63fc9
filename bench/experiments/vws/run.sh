#!/usr/bin/env bash
# Rerun the VWS experiment (issue 14; docs/vws.md): the six schedulers, the
# alpha sweep and the beta sweep on fermi15-vws, each normalised to LRR,
# with report tables and figures.
#   bash bench/experiments/vws/run.sh [OUT] [--class sensitive|insensitive|all]
#        [--size tiny|small|medium|large] [--only vws|alpha|beta|swl|iwlfam|formula] [--workloads "a b"] [-j N]
# OUT defaults to out/vws. The workload list comes from `gpusim list` at run
# time: --class sensitive (default) takes every workload tagged
# [cache-sensitive], insensitive every other one, all both, so workloads
# added later are picked up; --workloads names them instead. -j (default 2) is passed to `gpusim sweep`.
# Finished jobs are skipped, so an interrupted run resumes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$root/out/vws
class=sensitive size=small only="vws alpha beta" jobs=${J:-2} names=""
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
while [ $# -gt 0 ]; do
    case $1 in
    --class) class=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --workloads) names=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
gpusim=${GPUSIM:-$root/build/gpusim}
[ -x "$gpusim" ] || { echo "build first: cmake -S $root -B $root/build && cmake --build $root/build -j2" >&2; exit 2; }
export GPUSIM_CONFIG_DIR=${GPUSIM_CONFIG_DIR:-$root/configs}
# workloads: the indented lines of `gpusim list` before "presets"
list=$("$gpusim" list | awk '/^presets/ {exit} /^  [a-z0-9_]/ {print}')
case $class in
sensitive) wl=$(printf '%s\n' "$list" | awk '/\[cache-sensitive\]/ {print $1}') ;;
insensitive) wl=$(printf '%s\n' "$list" | awk '!/\[cache-sensitive\]/ {print $1}') ;;
all) wl=$(printf '%s\n' "$list" | awk '{print $1}') ;;
*) echo "run.sh: --class must be sensitive, insensitive or all" >&2; exit 2 ;;
esac
wl=$(echo $wl)
[ -z "$names" ] || wl=$names
[ -n "$wl" ] || { echo "run.sh: no workload in class $class" >&2; exit 2; }
mkdir -p "$out"
for s in $only; do
    # the sweep file with this run's workloads and size
    sed -e "s|^workloads .*|workloads = $wl|" -e "s|^sizes .*|sizes     = $size|" \
        -e "s|^preset .*|preset    = fermi15-vws|" "$here/$s.sweep" > "$out/$s.sweep"
    "$gpusim" sweep "$out/$s.sweep" -o "$out/$s" -j "$jobs" --progress
    "$gpusim" report "$out/$s" --stat ipc,cycles,l1d_miss_rate,dram_bw_util \
        --md "$out/$s/report.md" --csv "$out/$s/report.csv" --svg-dir "$out/$s/figures"
done
echo "results: $(for s in $only; do printf '%s ' "$out/$s/report.md"; done)"
