#!/usr/bin/env bash
# 2-thread work inflation: sgemm and bfs small on gtx480, 1 thread, then 2 threads default / no steal / no adaptive, twice each.
R=$PWD; D=$R/.dev/s21; export GPUSIM_CONFIG_DIR=$R/configs GPUSIM_SOURCE_DIR=$R LD_LIBRARY_PATH=$D; G=$D/gpusim-new
uptime
for w in sgemm bfs; do
 for rep in 1 2; do
  for v in "1|" "2|" "2|-o sync.steal=false" "2|-o sync.adaptive=false"; do
   t=${v%%|*}; x=${v#*|}
   taskset -c 2,3 $G run $w --size small -o sim.mode=timing --threads $t --pin none -q $x --stats /tmp/t.json > /dev/null 2>&1
   python3 -c "
import json; d=json.load(open('/tmp/t.json')); h=d['host']; pt=h.get('per_thread',[]); a=h.get('adaptive',{})
print('$w', '$rep', 'threads $t', '$x' or 'default', 'kernel_s %.2f' % h['kernel_seconds'], 'busy', [round(p['busy_seconds'],2) for p in pt], 'barrier', [round(p['barrier_seconds'],2) for p in pt], 'active %.2f rep %s moves %s' % (a.get('active_threads_mean',0), a.get('repartitions',''), a.get('moves','')))"
  done
 done
done
uptime
