#!/usr/bin/env bash
# Device call (session 14): session 12's three parts at the session-13 head, plus one.
#  A quiet scaling 1/2/4/8/16 threads (small; gtx480, fermi24; sgemm, bfs, hotspot);
#  B per-thread rate at medium, sgemm and bfs, 1 thread and 2 threads, on idle cores (taskset, --pin none);
#  C busy host (as many CPU-bound processes as cores), sgemm and bfs small, threads 1 and auto;
#  D busy host, few-CTA runs: compute1 (one CTA) and gaussian small, threads 1, 2 and auto.
# Run from the repository root. OUT is where results go. GPUSIM and SPEED name the binaries
# (a prebuilt copy with hwloc and jemalloc beside them in LD_LIBRARY_PATH when the host has neither).
R=$PWD; OUT=${OUT:?set OUT to a results folder}; mkdir -p "$OUT"
export GPUSIM_CONFIG_DIR=$R/configs GPUSIM_SOURCE_DIR=$R
G=${GPUSIM:-$R/build/gpusim}; S=${SPEED:-$R/build/bench/speed}; T0=$(date +%s)
SZ=${SZ:-small}; MSZ=${MSZ:-medium}; TH=${TH:-1,2,4,8,16}; NB=${NB:-$(nproc)}
TA=${TA:-190}; TB=${TB:-165}; TC=${TC:-95}; TD=${TD:-90}
log() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket|L3|MHz"; ldd --version | head -1; uptime; ldd $G | grep -i "not found"; $G --version; } > $OUT/host.txt 2>&1
cat $OUT/host.txt
log "A: scaling $SZ threads $TH"
timeout -k 5 $TA $S --size $SZ --configs gtx480,fermi24 --workloads sgemm,bfs,hotspot --threads $TH --modes exact --json $OUT/A.json > $OUT/A.md 2> $OUT/A.err
log "A done rc=$?"; grep -A30 "Measured here" $OUT/A.md | head -40
log "B: per-thread rate $MSZ, 1 and 2 threads"
if [ $(nproc) -ge 12 ]; then C1=3 C2=11 C3=4,5 C4=12,13; else C1=0 C2=1 C3=0,1 C4=0,1; fi
P=""
for w in sgemm bfs; do
  if [ $w = sgemm ]; then c1=$C1 c2=$C3; else c1=$C2 c2=$C4; fi
  taskset -c $c1 $G run $w --size $MSZ -o sim.mode=timing --threads 1 --pin none -q --stats /tmp/b-$w-1.json > /tmp/b-$w-1.log 2>&1 & P="$P $!"
  taskset -c $c2 $G run $w --size $MSZ -o sim.mode=timing --threads 2 --pin none -q --stats /tmp/b-$w-2.json > /tmp/b-$w-2.log 2>&1 & P="$P $!"
done
( sleep $TB; kill -INT $P 2>/dev/null ) & K=$!
wait $P; kill $K 2>/dev/null
python3 - > $OUT/B.txt 2>&1 <<'PY'
import json
for w in ("sgemm", "bfs"):
    for t in (1, 2):
        try:
            d = json.load(open(f"/tmp/b-{w}-{t}.json")); h = d["host"]
            pt = h.get("per_thread", [])
            print(w, "threads", t, d["run"]["verdict"], "kernel_s %.2f" % h["kernel_seconds"],
                  "Mwi/s %.3f" % (h["warp_insts_per_second"] / 1e6),
                  "busy_s", [round(x["busy_seconds"], 2) for x in pt], "barrier_s", [round(x["barrier_seconds"], 2) for x in pt])
        except Exception as e:
            print(w, "threads", t, "no result", e, open(f"/tmp/b-{w}-{t}.log").read()[-300:])
PY
log "B done"; cat $OUT/B.txt
log "C: busy $NB"
timeout -k 5 $TC $S --busy $NB --size $SZ --configs gtx480 --workloads sgemm,bfs --threads 1,auto --modes exact --json $OUT/C.json > $OUT/C.md 2> $OUT/C.err
log "C done rc=$?"; grep -B2 -A6 "^| workload" $OUT/C.md | head -30
log "D: busy $NB, few CTAs"
timeout -k 5 $TD $S --busy $NB --size $SZ --configs gtx480 --workloads compute1,gaussian --threads 1,2,auto --modes exact --json $OUT/D.json > $OUT/D.md 2> $OUT/D.err
log "D done rc=$?"; grep -B2 -A8 "^| workload" $OUT/D.md | head -30
uptime; ls -la $OUT
