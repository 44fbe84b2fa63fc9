#!/usr/bin/env bash
# Device call (session 12): (A) quiet scaling 1/2/4/8/16 threads, out-of-sample check of the
# projection; (B) per-thread rate at medium, sgemm and bfs on two idle cores; (C) busy machine,
# as many CPU-bound processes as cores, threads 1 and auto.
# Run from the repository root after a Release build; OUT is where results go.
# On the lent host the binaries were a prebuilt copy (GPUSIM, SPEED) with
# hwloc and jemalloc beside them (LD_LIBRARY_PATH), the host having neither.
R=$PWD; OUT=${OUT:?set OUT to a results folder}; mkdir -p "$OUT"
export GPUSIM_CONFIG_DIR=$R/configs GPUSIM_SOURCE_DIR=$R
G=${GPUSIM:-$R/build/gpusim}; S=${SPEED:-$R/build/bench/speed}; T0=$(date +%s)
SZ=${SZ:-small}; MSZ=${MSZ:-medium}; TH=${TH:-1,2,4,8,16}; NB=${NB:-$(nproc)}
TA=${TA:-230}; TB=${TB:-180}; TC=${TC:-110}
log() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket|L3|MHz"; ldd --version | head -1; uptime; ldd $G | grep -i "not found"; $G --version; } > $OUT/host.txt 2>&1
cat $OUT/host.txt
log "A: scaling $SZ threads $TH"
timeout -k 5 $TA $S --size $SZ --configs gtx480,fermi24 --workloads sgemm,bfs,hotspot --threads $TH --modes exact --json $OUT/A.json > $OUT/A.md 2> $OUT/A.err
log "A done rc=$?"; grep -A30 "Measured here" $OUT/A.md | head -40
log "B: per-thread rate $MSZ"
if [ $(nproc) -ge 8 ]; then C1=3 C2=11; else C1=0 C2=1; fi
taskset -c $C1 $G run sgemm --size $MSZ -o sim.mode=timing --threads 1 --pin none -q --stats /tmp/b-sgemm.json > /tmp/b-sgemm.log 2>&1 & P1=$!
taskset -c $C2 $G run bfs --size $MSZ -o sim.mode=timing --threads 1 --pin none -q --stats /tmp/b-bfs.json > /tmp/b-bfs.log 2>&1 & P2=$!
( sleep $TB; kill -INT $P1 $P2 2>/dev/null ) & K=$!
wait $P1 $P2; kill $K 2>/dev/null
python3 - > $OUT/B.txt 2>&1 <<'P'
import json
for w in ("sgemm","bfs"):
    try:
        d=json.load(open(f"/tmp/b-{w}.json")); h=d["host"]
        print(w, d["run"]["verdict"], "kernel_s %.2f"%h["kernel_seconds"], "Mwi/s %.3f"%(h["warp_insts_per_second"]/1e6),
              "warp_insts", h.get("warp_insts"), "cycles", d["run"].get("cycles"))
    except Exception as e: print(w, "no result", e, open(f"/tmp/b-{w}.log").read()[-300:])
P
log "B done"; cat $OUT/B.txt
log "C: busy $NB"
timeout -k 5 $TC $S --busy $NB --size $SZ --configs gtx480 --workloads sgemm,bfs --threads 1,auto --modes exact --json $OUT/C.json > $OUT/C.md 2> $OUT/C.err
log "C done rc=$?"; grep -B2 -A6 "^| workload" $OUT/C.md | head -30
uptime; ls -la $OUT
