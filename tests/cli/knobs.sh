#!/usr/bin/env bash
# tests/cli/knobs.sh: the classification knobs of docs/knobs.md on whole
# workloads at tiny size in timing mode.
#  - l1d.perfect on srad with a 2 KB L1D (cache-sensitive at that size): the
#    run still verifies, the L1D hit rate does not drop and the cycles do not
#    grow, loads are served from the side store (l1d.perfect_hits), and the
#    hit rate equals that of the default 16 KB perfect L1D within 1 % (a
#    contention-free L1D misses only first touches, whatever its size; only
#    MSHR merges of loads behind a first touch depend on timing); with the default
#    16 KB L1D the same holds.
#  - dram.model = perfect: verifies, issues no DRAM commands, no more cycles.
#  - sm.max_cta = 1: verifies (one CTA slot per SM).
source "$(dirname "$0")/../support/cli_lib.sh"
T=(-o sim.mode=timing --threads 2)
SMALL=(-o l1d.size=2KB -o l1d.set_index=linear)
# tnum FILE KEY: a number of the "timing" object
tnum() { awk -v k="\"$2\":" '/^  "timing": \{/ {t=1} t && $1 == k {gsub(/,/, "", $2); print $2; exit}' "$1"; }
# stot FILE NAME: the total of an instanced counter in stats.total
stot() { awk -v k="\"$2\":" '$1 == k {f=1; next} f && $1 == "\"total\":" {gsub(/,/, "", $2); print $2; exit}' "$1"; }
le() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a + 0 <= b + 0)}'; }

expect_exit 0 "srad, 2 KB L1D" -- "$GPUSIM" run srad --size tiny "${T[@]}" "${SMALL[@]}" --stats "$TMP/n.json"
expect_exit 0 "srad, 2 KB L1D, l1d.perfect verifies" -- \
  "$GPUSIM" run srad --size tiny "${T[@]}" "${SMALL[@]}" -o l1d.perfect=true --stats "$TMP/p.json"
hn=$(tnum "$TMP/n.json" l1d_load_hit_rate); hp=$(tnum "$TMP/p.json" l1d_load_hit_rate)
cn=$(tnum "$TMP/n.json" cycles); cp=$(tnum "$TMP/p.json" cycles)
echo "# 2 KB: hit rate $hn -> $hp, cycles $cn -> $cp"
le "$hn" "$hp"; ok $? "perfect L1D hit rate $hp >= $hn"
le "$cp" "$cn"; ok $? "perfect L1D cycles $cp <= $cn"
ph=$(stot "$TMP/p.json" l1d.perfect_hits)
[ -n "$ph" ] && [ "$ph" -gt 0 ]; ok $? "loads served from the side store ($ph)"
! grep -q '"l1d.perfect_hits"' "$TMP/n.json"; ok $? "l1d.perfect off: no new statistic"

expect_exit 0 "srad, 16 KB L1D" -- "$GPUSIM" run srad --size tiny "${T[@]}" --stats "$TMP/n16.json"
expect_exit 0 "srad, 16 KB L1D, l1d.perfect" -- \
  "$GPUSIM" run srad --size tiny "${T[@]}" -o l1d.perfect=true --stats "$TMP/p16.json"
h16=$(tnum "$TMP/p16.json" l1d_load_hit_rate)
# equal up to MSHR merges, whose count depends on timing (exactly equal on srad today)
awk -v a="$hp" -v b="$h16" 'BEGIN {d = a - b; exit !(d < 0.01 && d > -0.01)}'
ok $? "perfect hit rate independent of the L1D size ($hp, $h16)"
le "$(tnum "$TMP/n16.json" l1d_load_hit_rate)" "$h16"; ok $? "16 KB: perfect hit rate not lower"
le "$(tnum "$TMP/p16.json" cycles)" "$(tnum "$TMP/n16.json" cycles)"; ok $? "16 KB: perfect cycles not higher"

expect_exit 0 "dram.model=perfect verifies" -- \
  "$GPUSIM" run srad --size tiny "${T[@]}" -o dram.model=perfect --stats "$TMP/d.json"
[ "$(stot "$TMP/d.json" dram.rd_cmds)" = 0 ] && [ "$(stot "$TMP/d.json" dram.activates)" = 0 ]
ok $? "perfect DRAM issues no commands"
le "$(tnum "$TMP/d.json" cycles)" "$(tnum "$TMP/n16.json" cycles)"; ok $? "perfect DRAM cycles not higher"
expect_exit 0 "sm.max_cta=1 verifies" -- "$GPUSIM" run srad --size tiny "${T[@]}" -o sm.max_cta=1
expect_exit 2 "l1d.perfect with l1d.enable=false refused" -- \
  "$GPUSIM" run srad --size tiny "${T[@]}" -o l1d.perfect=true -o l1d.enable=false
contains "$TMP/err" "l1d.perfect" "message names l1d.perfect"
finish
