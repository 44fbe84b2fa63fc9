#!/usr/bin/env bash
# CLI: every configuration preset in configs/*.cfg resolves, runs a small
# workload in timing mode with a verified result, and visibly takes effect.
#
# For each preset <name>:
#   - 'gpusim presets' lists it;
#   - 'gpusim config --show <name>' exits 0;
#   - one property that proves the file took effect: a key has the preset's
#     value and its origin is <name>.cfg itself (not gtx480.cfg through the
#     include); presets added later without an entry below are reported as
#     SKIP for this check only;
#   - the timing-mode rules that hold for every preset: clock.icnt equals
#     clock.core (the SM steps its interconnect halves on core edges) and a
#     1.4 GHz hot-clock core has sm.pipe_clock_div = 2 (spec 3.1);
#   - 'gpusim run vectoradd|reduction --size tiny -q -o sim.mode=timing -c <name>'
#     exits 0, i.e. the result verified against the CPU reference. Presets
#     with sm.pipe_clock_div > 1 need the timing model's pipeline-clock
#     support; their description says "hot clock";
#   - the file cites its sources without absolute machine paths (and so
#     does docs/presets.md).
# See docs/presets.md for what each preset reproduces.
source "$(dirname "$0")/../support/cli_lib.sh"

SRC_DIR=$(cd "$(dirname "$0")/../.." && pwd)
CFG_DIR=${GPUSIM_CONFIG_DIR:-$SRC_DIR/configs}
export GPUSIM_CONFIG_DIR=$CFG_DIR

# One property per preset: "key = value" as 'config --show' prints it
# (normalised form), set in the preset's own file.
property() {
  case "$1" in
    gtx480)         echo "gpu.n_sm = 15" ;;
    fermi16)        echo "gpu.n_sm = 16" ;;
    fermi24)        echo "mem.n_partitions = 8" ;;
    gtx480-li2015)  echo "l2_to_dram.latency = 20" ;;
    gtx480-gpgpusim42) echo "l2.mshr = 256" ;;
    fermi15-rf)     echo "sm.n_sched = 1" ;;
    fermi15-rf-lrr) echo "rf.max_bank_accesses_per_cycle = 4" ;;
    fermi15-vws)    echo "l1d.size = 32K" ;;
    fermi15-sharing) echo "dram.queue = 32" ;;
    fermi16-gtsc)   echo "clock.dram = 1.4GHz" ;;
    fermi16-sc)     echo "icnt.topology = mesh2d" ;;
    hetero8-temp)   echo "gpu.n_sm = 8" ;;
    maxwell24-ltrf) echo "gpu.n_sm = 24" ;;
    *)              echo "" ;;
  esac
}

# value <show-output> <key>: the value column of one key
value() { sed -n "s/^${2//./\\.} = \([^ ]*\) .*/\1/p" "$1"; }

shopt -s nullglob
files=("$CFG_DIR"/*.cfg)
[ "${#files[@]}" -ge 12 ]; ok $? "configs/ holds the 3 base and 9 per-document presets (${#files[@]} files in $CFG_DIR)"

"$GPUSIM" presets >"$TMP/presets" 2>&1
cd "$TMP" || exit 1

for f in "${files[@]}"; do
  name=$(basename "$f" .cfg)
  grep -Eq "^$name( |$)" "$TMP/presets"; ok $? "$name: listed by 'gpusim presets'"

  expect_exit 0 "$name: config --show" -- "$GPUSIM" config --show "$name"
  cp "$TMP/out" "$TMP/show"

  prop=$(property "$name")
  if [ -n "$prop" ]; then
    key=${prop%% = *}
    want=${prop#* = }
    line=$(grep -E "^${key//./\\.} = " "$TMP/show")
    echo "$line" | grep -Eq "^${key//./\\.} = ${want//./\\.} +# .*/${name//./\\.}\.cfg:[0-9]+$"
    s=$?
    ok $s "$name: $prop, set in $name.cfg"
    [ $s -eq 0 ] || echo "# got: ${line:-no line for $key}"
  else
    ok 0 "$name: property check # SKIP no property listed for this preset in tests/cli/presets.sh"
  fi

  core=$(value "$TMP/show" clock.core)
  icnt=$(value "$TMP/show" clock.icnt)
  div=$(value "$TMP/show" sm.pipe_clock_div)
  [ -n "$core" ] && [ "$core" = "$icnt" ]; ok $? "$name: clock.icnt ($icnt) = clock.core ($core), as timing mode needs"
  if [ "$core" = "1.4GHz" ]; then
    [ "$div" = "2" ]; ok $? "$name: 1.4 GHz hot clock has sm.pipe_clock_div = 2 (got $div)"
  fi

  what="$name: run vectoradd --size tiny in timing mode verifies"
  [ "${div:-1}" != "1" ] && what="$what (hot clock, sm.pipe_clock_div = $div)"
  expect_exit 0 "$what" -- "$GPUSIM" run vectoradd --size tiny -q -o sim.mode=timing -c "$name"
  # reduction: barriers and several kernels; caught a lost pipeline wake
  # with sm.pipe_clock_div = 2 on mesh presets (CTA start between edges)
  expect_exit 0 "$name: run reduction --size tiny in timing mode verifies" -- \
    "$GPUSIM" run reduction --size tiny -q -o sim.mode=timing -c "$name"

  # Sources are cited by repository-relative paths (shared/spec/...) or
  # document names, never by a machine path such as /work/... or /home/...
  abs=$(grep -nE "(^|[[:space:](\`\"'])/[A-Za-z]" "$f")
  [ -z "$abs" ]; ok $? "$name: cites no absolute path"
  [ -z "$abs" ] || echo "$abs" | sed 's/^/#   /'
done
# gtx480-gpgpusim42 returns reads as sector packets (l2.sector_replies,
# NOTE(sector-replies)): with the key the SMs reassemble them and the
# result still verifies; the reply network carries more packets; without
# it the statistic does not exist (the baseline's statistics are unchanged).
expect_exit 0 "gtx480-gpgpusim42: vectoradd with sector replies verifies" -- \
  "$GPUSIM" run vectoradd --size tiny -q -o sim.mode=timing -c gtx480-gpgpusim42 --stats "$TMP/sr_on.json"
expect_exit 0 "gtx480-gpgpusim42: vectoradd without them verifies" -- \
  "$GPUSIM" run vectoradd --size tiny -q -o sim.mode=timing -c gtx480-gpgpusim42 -o l2.sector_replies=false \
  --stats "$TMP/sr_off.json"
python3 - "$TMP/sr_on.json" "$TMP/sr_off.json" >"$TMP/sr.txt" 2>&1 <<'PY'
import json, sys
on, off = (json.load(open(p))['stats']['total'] for p in sys.argv[1:3])
def v(s, k):
    x = s.get(k)
    return x.get('total') if isinstance(x, dict) else x
parts, pk_on, pk_off = v(on, 'sm.reply_parts'), v(on, 'icnt.reply.tx_packets'), v(off, 'icnt.reply.tx_packets')
print(parts, pk_on, pk_off, v(off, 'sm.reply_parts'))
# every line read becomes 4 packets: parts are a multiple of 4 here, and
# the network carries 3 more packets per reassembled read
ok = bool(parts) and parts % 4 == 0 and pk_on == pk_off + 3 * parts // 4 and v(off, 'sm.reply_parts') is None
sys.exit(0 if ok else 1)
PY
ok $? "gtx480-gpgpusim42: sector packets reassembled, 3 more reply packets per line read, no statistic when off ($(cat "$TMP/sr.txt"))"

# gtx480-gpgpusim42 holds GPGPU-Sim's 4 memory instructions between issue
# and the LD/ST stage (sm.memop_pool 3 plus the LD/ST latch); gtx480 keeps
# 16. With few in the path, GTO's age order decides which warp's load goes
# next: on pvc at an L2 capacity edge (1 SM, 8 KB slices: GPGPU-Sim 4.2
# reads 23,033 DRAM commands in pvc_map; docs/correlation.md session 22)
# the L2 misses less than with the deep path (session 24, with 4.x's
# scheduler order and mem dispatch delay: 6,144 L2 misses and 23,788 DRAM
# read commands against 8,301 and 32,340; GPGPU-Sim 23,033).
"$GPUSIM" config --show gtx480-gpgpusim42 >"$TMP/p42.show" 2>&1
"$GPUSIM" config --show gtx480 >"$TMP/g.show" 2>&1
[ "$(value "$TMP/p42.show" sm.memop_pool)" = 3 ] && [ "$(value "$TMP/g.show" sm.memop_pool)" = 16 ]
ok $? "sm.memop_pool: 3 in gtx480-gpgpusim42, 16 in gtx480"
# 4.x starts each cycle with the next warp scheduler (docs/sched.md
# NOTE(issue-order)) and streams memory instructions into the LD/ST unit
# (pipes.mem_dispatch_delay 1; the 2 cycles sit behind the stage instead:
# smem.latency 27, l1d.access_latency 36); gtx480 keeps 3.2.2's fixed order
# and one dispatch delay for every pipe.
[ "$(value "$TMP/p42.show" sched.issue_order)" = rotate ] && [ "$(value "$TMP/g.show" sched.issue_order)" = fixed ]
ok $? "sched.issue_order: rotate in gtx480-gpgpusim42, fixed in gtx480"
[ "$(value "$TMP/p42.show" pipes.mem_dispatch_delay)" = 1 ] && [ "$(value "$TMP/g.show" pipes.mem_dispatch_delay)" = -1 ] &&
  [ "$(value "$TMP/p42.show" smem.latency)" = 27 ] && [ "$(value "$TMP/p42.show" l1d.access_latency)" = 36 ]
ok $? "gtx480-gpgpusim42: pipes.mem_dispatch_delay 1, smem.latency 27, l1d.access_latency 36; gtx480 mem_dispatch_delay -1"
for pool in 3 16; do
  expect_exit 0 "pvc at the L2 edge with sm.memop_pool $pool verifies" -- \
    "$GPUSIM" run pvc --size tiny -q -o sim.mode=timing -c gtx480-gpgpusim42 -o gpu.n_sm=1 -o l2.size_per_sub=8K \
    -o sm.memop_pool=$pool --stats "$TMP/pool$pool.json"
done
python3 - "$TMP/pool3.json" "$TMP/pool16.json" >"$TMP/pool.txt" 2>&1 <<'PY'
import json, sys
def misses(p):
    k = json.load(open(p))['stats']['kernels'][0]['stats']['l2.misses']
    return k.get('total') if isinstance(k, dict) else k
a, b = misses(sys.argv[1]), misses(sys.argv[2])
print(a, b)
sys.exit(0 if a < 0.85 * b else 1)
PY
ok $? "pvc_map's L2 misses with 3 memory instructions in the path under 85 % of those with 16 ($(cat "$TMP/pool.txt"))"

doc="$SRC_DIR/docs/presets.md"
abs=$(grep -nE "(^|[[:space:](\`\"'])/[A-Za-z]" "$doc")
[ -z "$abs" ]; ok $? "docs/presets.md cites no absolute path"
[ -z "$abs" ] || echo "$abs" | sed 's/^/#   /'
finish
