#!/usr/bin/env bash
# Device call (session 21, gpusim fa682f4): per-thread rate at medium (default Release build and
# the bench/pgo.sh build, 1 thread; default build 2 threads), then quiet scaling 1-16 threads at small.
R=$PWD; OUT=${OUT:?set OUT}; mkdir -p "$OUT"; D=$R/.dev/s21
export GPUSIM_CONFIG_DIR=$R/configs GPUSIM_SOURCE_DIR=$R LD_LIBRARY_PATH=$D
G=$D/gpusim; GP=$D/gpusim-pgo; S=$D/speed; T0=$(date +%s)
TB=${TB:-110}; TA=${TA:-200}
log() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket|L3|MHz"; ldd --version | head -1; uptime; ldd $G | grep -i "not found"; $G --version; } > $OUT/host.txt 2>&1
cat $OUT/host.txt
log "B: medium, 1 thread (default, pgo) and 2 threads (default), cut at $TB s"
P=""
st() { local c=$1 b=$2 w=$3 t=$4 tag=$5
  taskset -c $c $b run $w --size medium -o sim.mode=timing --threads $t --pin none -q --stats /tmp/b-$tag.json > /tmp/b-$tag.log 2>&1 & P="$P $!"; }
st 3 $G sgemm 1 sgemm-1; st 11 $G bfs 1 bfs-1
st 4,5 $G sgemm 2 sgemm-2; st 12,13 $G bfs 2 bfs-2
st 7 $GP sgemm 1 sgemm-1pgo; st 15 $GP bfs 1 bfs-1pgo
( sleep $TB; kill -INT $P 2>/dev/null ) & K=$!
wait $P; kill $K 2>/dev/null
python3 - > $OUT/B.txt 2>&1 <<'PY'
import json
for tag in ("sgemm-1", "sgemm-2", "sgemm-1pgo", "bfs-1", "bfs-2", "bfs-1pgo"):
    try:
        d = json.load(open(f"/tmp/b-{tag}.json")); h = d["host"]
        pt = h.get("per_thread", [])
        print(tag, d["run"]["verdict"], "kernel_s %.2f" % h["kernel_seconds"],
              "warp_insts", h.get("warp_insts", ""), "Mwi/s %.3f" % (h["warp_insts_per_second"] / 1e6),
              "busy_s", [round(x["busy_seconds"], 2) for x in pt], "barrier_s", [round(x["barrier_seconds"], 2) for x in pt])
    except Exception as e:
        print(tag, "no result", e, open(f"/tmp/b-{tag}.log").read()[-300:])
PY
log "B done"; cat $OUT/B.txt
log "A: scaling small 1-16 threads, quiet"
timeout -k 5 $TA $S --size small --configs gtx480,fermi24 --workloads sgemm,bfs --threads 1,2,4,8,16 --modes exact --json $OUT/A.json > $OUT/A.md 2> $OUT/A.err
log "A done rc=$?"; grep -A40 "Measured here\|Projection" $OUT/A.md | head -60
uptime; ls -la $OUT
