#!/usr/bin/env bash
# tests/cli/workload_run.sh: `gpusim run` and `gpusim list` behaviour:
# verdicts and exit codes (a wrong kernel must fail with exit 1 and print the
# first mismatches), unknown names, bad options, the stats JSON, and that
# the same seed gives the same statistics while another seed changes them.
source "$(dirname "$0")/../support/cli_lib.sh"
SRC=${GPUSIM_SOURCE_DIR:?}

expect_exit 0 "list works" -- "$GPUSIM" list
contains "$TMP/out" "vectoradd" "list names vectoradd"
contains "$TMP/out" "gtx480" "list names the presets"

expect_exit 0 "vectoradd tiny verifies" -- "$GPUSIM" run vectoradd --size tiny
contains "$TMP/out" "verified" "verdict printed"

# A deliberately wrong kernel (add replaced by sub) must be caught.
sed 's/add\.f32/sub.f32/' "$SRC/workloads/vectoradd/kernel.ptx" > "$TMP/bad.ptx"
expect_exit 1 "wrong kernel fails verification" -- "$GPUSIM" run vectoradd --size tiny --ptx "$TMP/bad.ptx"
contains "$TMP/err" "mismatch in c[0]" "first mismatch printed with index"
contains "$TMP/err" "(first 10 shown)" "mismatch listing is bounded"

# Malformed replacement PTX is an input error (exit 2) with file:line.
printf '.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry vectoradd( { bogus; }\n' > "$TMP/broken.ptx"
expect_exit 2 "malformed --ptx is exit 2" -- "$GPUSIM" run vectoradd --size tiny --ptx "$TMP/broken.ptx"
contains "$TMP/err" "broken.ptx:4:" "PTX error names file:line"

# NOTE(ptx-sidecar): FILE.regs beside --ptx FILE sets the register counts
# for occupancy (here one that cannot fit: a launch error naming them), and a
# malformed one is an input error with file:line:column.
cp "$SRC/workloads/vectoradd/kernel.ptx" "$TMP/k.ptx"
echo "vectoradd 200" > "$TMP/k.ptx.regs"
expect_exit 2 "--ptx reads FILE.regs (200 registers cannot launch)" -- "$GPUSIM" run vectoradd --size tiny --ptx "$TMP/k.ptx"
contains "$TMP/err" "256 threads x 200 registers does not fit an SM" "the sidecar's count is the one used"
echo "vectoradd x" > "$TMP/k.ptx.regs"
expect_exit 2 "malformed FILE.regs is exit 2" -- "$GPUSIM" run vectoradd --size tiny --ptx "$TMP/k.ptx"
contains "$TMP/err" "k.ptx.regs:1:11:" "sidecar error names file:line:column"
rm "$TMP/k.ptx.regs"
expect_exit 0 "--ptx without a sidecar runs (allocator's counts)" -- "$GPUSIM" run vectoradd --size tiny --ptx "$TMP/k.ptx"

expect_exit 2 "unknown workload" -- "$GPUSIM" run vectorad
contains "$TMP/err" "did you mean 'vectoradd'" "did-you-mean hint"
expect_exit 2 "missing workload name" -- "$GPUSIM" run
expect_exit 2 "bad size" -- "$GPUSIM" run vectoradd --size huge
expect_exit 2 "bad seed" -- "$GPUSIM" run vectoradd --seed -3
expect_exit 2 "bad config key" -- "$GPUSIM" run vectoradd --size tiny -o gpu.n_sms=4
contains "$TMP/err" "gpu.n_sms" "config error names the key"

# Statistics: run info recorded; same seed => identical stats, other seed differs.
expect_exit 0 "stats written" -- "$GPUSIM" run vectoradd --size tiny --seed 7 --stats "$TMP/a.json"
contains "$TMP/a.json" '"workload": "vectoradd"' "stats carry the workload"
contains "$TMP/a.json" '"verdict": "verified"' "stats carry the verdict"
expect_exit 0 "second run" -- "$GPUSIM" run vectoradd --size tiny --seed 7 --stats "$TMP/b.json"
cmp -s <(nohost "$TMP/a.json") <(nohost "$TMP/b.json"); ok $? "same seed, identical statistics"
finish
