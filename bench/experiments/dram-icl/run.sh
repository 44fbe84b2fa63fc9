#!/usr/bin/env bash
# Rerun the dram-icl experiment (issue 17, seed 003): classification,
# FR-FCFS vs MSHR-M / MSHR-S / MSHR-S+A on every workload, the L2->DRAM
# latency and read-queue sensitivity on the HIL set, and the report.
#   bash bench/experiments/dram-icl/run.sh [OUT]        (J=N: parallel jobs)
# OUT defaults to out/dram-icl. Finished jobs are skipped, so an interrupted
# run resumes. Writes OUT/classes.md, OUT/report.md (the tables of README.md).
# INSENS_MAX=N runs step 2 on only the N insensitive workloads with the
# fewest FR-FCFS cycles (default: all); SENS=0 skips step 3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/out/dram-icl}
gpusim=${GPUSIM:-$root/build/gpusim}
[ -x "$gpusim" ] || { echo "build first: cmake -S $root -B $root/build && cmake --build $root/build -j" >&2; exit 2; }
export GPUSIM_CONFIG_DIR=${GPUSIM_CONFIG_DIR:-$root/configs}
J=${J:-$(nproc)}
mkdir -p "$out"

# 1. classification (FR-FCFS and perfect DRAM, every workload)
"$gpusim" sweep "$here/classify.sweep" -o "$out/classify" -j "$J" --progress
python3 "$here/classify.py" "$out/classify" --json "$out/classes.json" > "$out/classes.md"

# 2. the four schedulers on every classified workload
wls=$(python3 -c "
import json, sys
c = json.load(open(sys.argv[1])); m = int(sys.argv[2])
ins = sorted((v['cycles'], w) for w, v in c.items() if v['class'] == 'insensitive')
keep = {w for w, v in c.items() if v['class'] != 'insensitive'} | {w for _, w in ins[:m]}
print(' '.join(sorted(keep)))" "$out/classes.json" "${INSENS_MAX:-100000}")
hil=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1])); print(' '.join(w for w in sorted(c) if c[w]['class']=='HIL'))" "$out/classes.json")
sed "s/^workloads *=.*/workloads = $wls/" "$here/policies.sweep" > "$out/policies.sweep"
mkdir -p "$out/policies/jobs"
cp -n "$out/classify/jobs/"*.json "$out/policies/jobs/" 2>/dev/null || true  # the FR-FCFS runs (same job ids)
"$gpusim" sweep "$out/policies.sweep" -o "$out/policies" -j "$J" --progress

# 3. sensitivity on the HIL set (skipped when there is none)
if [ -n "$hil" ] && [ "${SENS:-1}" != 0 ]; then
    sed "s/^workloads *=.*/workloads = $hil/" "$here/sensitivity.sweep" > "$out/sensitivity.sweep"
    mkdir -p "$out/sensitivity/jobs"
    cp -n "$out/policies/jobs/"*.json "$out/sensitivity/jobs/" 2>/dev/null || true
    "$gpusim" sweep "$out/sensitivity.sweep" -o "$out/sensitivity" -j "$J" --progress
fi
python3 "$here/report.py" "$out" > "$out/report.md"
echo "results: $out/classes.md $out/report.md"
