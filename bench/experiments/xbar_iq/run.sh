#!/usr/bin/env bash
# Rerun the xbar_iq experiment: gpusim's gtx480 with its output-queued
# crossbar (xbar) and with the input-queued one (-o icnt.topology=xbar_iq)
# on every workload recorded with GPGPU-Sim on 3.2.2's network, then (session
# 21) xbar and xbar_iq with 4.2's buffers and internal speedup on every
# workload recorded on 4.2's network, and the tables of report.md
# (docs/correlation.md, sessions 19 and 21).
#   bash bench/experiments/xbar_iq/run.sh [OUT] [-j N]
# OUT defaults to out/xbar_iq. Statistics already in OUT are reused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/out/xbar_iq}; shift || true
jobs=2; [ "${1:-}" = -j ] && jobs=$2
gpusim=${GPUSIM:-$root/build/gpusim}
[ -x "$gpusim" ] || { echo "build first: cmake -S $root -B $root/build && cmake --build $root/build -j" >&2; exit 2; }
export GPUSIM_CONFIG_DIR=${GPUSIM_CONFIG_DIR:-$root/configs}
rec=$root/bench/correlate/recorded.py
python3 "$rec" --gpusim "$gpusim" --network 3.2.2 --stats-dir "$out/xbar" --jobs "$jobs" --out "$out/xbar.md"
python3 "$rec" --gpusim "$gpusim" --network 3.2.2 --stats-dir "$out/xbar_iq" --jobs "$jobs" \
  -o icnt.topology=xbar_iq --out "$out/xbar_iq.md"
# session 21: GPGPU-Sim on 4.2's network (64-flit VC, internal speedup 2)
python3 "$rec" --gpusim "$gpusim" --network 4.2 --stats-dir "$out/xbar" --jobs "$jobs" --out "$out/xbar42.md"
python3 "$rec" --gpusim "$gpusim" --network 4.2 --stats-dir "$out/xbar_iq42" --jobs "$jobs" \
  -o icnt.topology=xbar_iq -o icnt.iq_buf_flits=64 -o icnt.iq_speedup=2 --out "$out/xbar_iq42.md"
python3 "$here/compare.py" "$out" > "$out/report.md"
echo "results: $out/report.md"
