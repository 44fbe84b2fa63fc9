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
doc="$SRC_DIR/docs/presets.md"
abs=$(grep -nE "(^|[[:space:](\`\"'])/[A-Za-z]" "$doc")
[ -z "$abs" ]; ok $? "docs/presets.md cites no absolute path"
[ -z "$abs" ] || echo "$abs" | sed 's/^/#   /'
finish
