#!/usr/bin/env bash
# tests/cli/summary.sh: the human summary `gpusim run` prints
# (sim/app/summary.c): in timing mode a kernel table with a total row, the
# issue-stall line, energy by structure and the host rate, within 25 lines;
# repeated launches grouped per kernel name; functional mode
# prints instructions and the host rate only; --quiet prints nothing.
source "$(dirname "$0")/../support/cli_lib.sh"
T=(-o sim.mode=timing --threads 2)
expect_exit 0 "vectoradd tiny, timing" -- "$GPUSIM" run vectoradd --size tiny "${T[@]}"
cp "$TMP/out" "$TMP/t.out"
sed 's/^/#   /' "$TMP/t.out"
contains "$TMP/t.out" "timing mode" "mode and machine line"
grep -Eq '^kernel +cycles +warp-in +thr-in +IPC +L1Dhit +L2hit +DRAMbw +rowhit +ldlat +energy' "$TMP/t.out"
ok $? "table header"
grep -Eq '^total \(1 launch\) +[0-9]' "$TMP/t.out"; ok $? "total row"
grep -Eq '^issue slots: [0-9.]+% issued of [0-9]+; top stalls: [a-z_]+ [0-9.]+%' "$TMP/t.out"
ok $? "top issue-stall reasons"
grep -Eq '^energy: [0-9.]+ [nmu]?J, [0-9.e+-]+ W average' "$TMP/t.out"; ok $? "energy total and power"
grep -Eq 'by structure \([nmu]?J\): rf [0-9.e+-]+, l1d [0-9.e+-]+, smem [0-9.e+-]+, l2 [0-9.e+-]+, icnt [0-9.e+-]+, dram [0-9.e+-]+, core [0-9.e+-]+$' "$TMP/t.out"
ok $? "energy by structure"
grep -Eq '^host: .* warp insts/s, .* cycles/s$' "$TMP/t.out"; ok $? "host time and simulation rate"
[ "$(wc -l < "$TMP/t.out")" -le 25 ]; ok $? "short: $(wc -l < "$TMP/t.out") lines"

# Repeated launches share a row (the "(N more, M runs)" row for more than 5
# kernel names is checked in tests/test_energy.c: no workload has that many).
expect_exit 0 "gaussian tiny, timing (98 launches of 2 kernels)" -- "$GPUSIM" run gaussian --size tiny "${T[@]}"
grep -Eq '^gauss_fan1 x49 ' "$TMP/out"; ok $? "repeated launches grouped by name with their count"
grep -Eq '^total \(98 launches\)' "$TMP/out"; ok $? "total counts every launch"
[ "$(wc -l < "$TMP/out")" -le 25 ]; ok $? "98 launches still short: $(wc -l < "$TMP/out") lines"

expect_exit 0 "vectoradd tiny, functional" -- "$GPUSIM" run vectoradd --size tiny
contains "$TMP/out" "functional mode" "functional mode line"
grep -Eq '^host: .* warp insts/s, .* thread insts/s$' "$TMP/out"; ok $? "functional host rate"
! grep -q '^energy' "$TMP/out"; ok $? "no energy without timing"

"$GPUSIM" run vectoradd --size tiny -q "${T[@]}" >"$TMP/q.out" 2>&1
[ ! -s "$TMP/q.out" ]; ok $? "--quiet prints no summary"
finish
