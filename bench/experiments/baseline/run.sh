#!/usr/bin/env bash
# Rerun the baseline experiment: the sweep, the report tables and figures,
# and the workload classification (report.md, figures/, classes.md).
#   bash bench/experiments/baseline/run.sh [OUT] [-j N]
# OUT defaults to out/baseline; -j defaults to the number of CPUs. Finished
# jobs are skipped, so an interrupted run resumes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/out/baseline}; shift || true
gpusim=${GPUSIM:-$root/build/gpusim}
[ -x "$gpusim" ] || { echo "build first: cmake -S $root -B $root/build && cmake --build $root/build -j" >&2; exit 2; }
export GPUSIM_CONFIG_DIR=${GPUSIM_CONFIG_DIR:-$root/configs}
"$gpusim" sweep "$here/baseline.sweep" -o "$out" -j "${J:-$(nproc)}" --progress "$@"
"$gpusim" report "$out" --stat ipc,cycles,l1d_miss_rate,dram_bw_util,load_latency,energy \
    --md "$out/report.md" --csv "$out/report.csv" --svg-dir "$out/figures"
python3 "$here/classify.py" "$out" > "$out/classes.md"
echo "results: $out/report.md $out/classes.md $out/figures/"
