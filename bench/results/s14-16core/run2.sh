#!/usr/bin/env bash
# Second device call (session 14): the per-thread rate at medium alone (sgemm and bfs, one
# thread each, side by side on two idle cores; in run.sh they shared the host with two
# 2-thread runs and bfs did not finish in 165 s), then the busy host with 3 repeats
# (sgemm small, threads 1 and auto). Same conventions as run.sh.
R=$PWD; OUT=${OUT:?set OUT}; mkdir -p "$OUT"
export GPUSIM_CONFIG_DIR=$R/configs GPUSIM_SOURCE_DIR=$R
G=${GPUSIM:-$R/build/gpusim}; S=${SPEED:-$R/build/bench/speed}; T0=$(date +%s)
MSZ=${MSZ:-medium}; SZ=${SZ:-small}; NB=${NB:-$(nproc)}; TB=${TB:-185}; TC=${TC:-85}
log() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket|L3|MHz"; ldd --version | head -1; uptime; $G --version; } 2>&1
if [ $(nproc) -ge 12 ]; then C1=3 C2=11; else C1=0 C2=1; fi
taskset -c $C1 $G run sgemm --size $MSZ -o sim.mode=timing --threads 1 --pin none -q --stats /tmp/e-sgemm.json > /tmp/e-sgemm.log 2>&1 & P1=$!
taskset -c $C2 $G run bfs --size $MSZ -o sim.mode=timing --threads 1 --pin none -q --stats /tmp/e-bfs.json > /tmp/e-bfs.log 2>&1 & P2=$!
( sleep $TB; kill -INT $P1 $P2 2>/dev/null ) & K=$!
wait $P1 $P2; kill $K 2>/dev/null
python3 - <<'PY'
import json
for w in ("sgemm", "bfs"):
    try:
        d = json.load(open(f"/tmp/e-{w}.json")); h = d["host"]
        print(w, "threads 1 alone", d["run"]["verdict"], "kernel_s %.2f" % h["kernel_seconds"],
              "Mwi/s %.3f" % (h["warp_insts_per_second"] / 1e6))
    except Exception as e:
        print(w, "no result", e, open(f"/tmp/e-{w}.log").read()[-300:])
PY
log "E done"
timeout -k 5 $TC $S --busy $NB --repeat 3 --size $SZ --configs gtx480 --workloads sgemm --threads 1,auto --modes exact > /tmp/f.md 2>/dev/null
log "F done rc=$?"; grep -A5 "^| workload" /tmp/f.md | head -8
