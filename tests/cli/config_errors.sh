#!/usr/bin/env bash
# CLI: configuration listing, resolution and error reporting (exit 2,
# file:line:key in every message, all errors reported, did-you-mean hints).
source "$(dirname "$0")/../support/cli_lib.sh"

expect_exit 0 "config --list works" -- "$GPUSIM" config --list
contains "$TMP/out" "engine.quantum" "config --list shows engine.quantum"
contains "$TMP/out" "clock.core" "config --list shows clock.core"

expect_exit 0 "config --show gtx480 works" -- "$GPUSIM" config --show gtx480
grep -Eq '^gpu\.n_sm *= *15' "$TMP/out"; ok $? "gtx480 resolves gpu.n_sm = 15"
expect_exit 0 "config --show fermi24 works" -- "$GPUSIM" config --show fermi24
grep -Eq '^gpu\.n_sm *= *24' "$TMP/out"; ok $? "fermi24 resolves gpu.n_sm = 24"

expect_exit 0 "-o override is applied" -- "$GPUSIM" config --show gtx480 -o gpu.n_sm=20
grep -Eq '^gpu\.n_sm *= *20' "$TMP/out"; ok $? "override value shown"

expect_exit 2 "unknown key in -o is an error" -- "$GPUSIM" config --show gtx480 -o gpu.nsm=3
contains "$TMP/err" "gpu.nsm" "message names the unknown key"
contains "$TMP/err" "did you mean 'gpu.n_sm'" "message suggests the closest key"

cat >"$TMP/bad.cfg" <<'CFG'
# three errors on lines 2, 3 and 5
clock.core = fast
gpu.n_sm = 100000
mem.n_partitions = 6
icnt.min_latncy = 8
CFG
expect_exit 2 "a config file with errors fails with exit 2" -- "$GPUSIM" config --show "$TMP/bad.cfg"
contains "$TMP/err" "bad.cfg:2" "error for line 2 has file:line"
contains "$TMP/err" "clock.core" "error for line 2 names clock.core"
contains "$TMP/err" "bad.cfg:3" "error for line 3 has file:line"
contains "$TMP/err" "gpu.n_sm" "error for line 3 names gpu.n_sm"
contains "$TMP/err" "bad.cfg:5" "error for line 5 has file:line"
contains "$TMP/err" "icnt.min_latency" "line 5 gets a did-you-mean hint"
n=$(grep -c 'error:' "$TMP/err"); [ "$n" -ge 3 ]; ok $? "all three errors are reported ($n)"

expect_exit 2 "missing preset is an error" -- "$GPUSIM" config --show no_such_preset
contains "$TMP/err" "no_such_preset" "message names the missing preset"

expect_exit 2 "exact mode refuses quantum > lookahead" -- "$GPUSIM" synth -q -o engine.quantum=20ns
contains "$TMP/err" "engine.quantum" "message names engine.quantum"
expect_exit 0 "relaxed mode accepts quantum > lookahead" -- "$GPUSIM" synth -q -o engine.quantum=20ns -o engine.relaxed=true

expect_exit 2 "address-map geometry is checked across sections" -- "$GPUSIM" config --show gtx480 -o dram.banks=8 -o mem.sub_per_partition=1
contains "$TMP/err" "dram.banks" "message names dram.banks"
contains "$TMP/err" "mem.sub_per_partition" "and mem.sub_per_partition (all errors reported)"

expect_exit 2 "unknown command" -- "$GPUSIM" frobnicate
expect_exit 2 "unknown option" -- "$GPUSIM" synth --frob
expect_exit 2 "--threads needs a number" -- "$GPUSIM" synth --threads zero
expect_exit 2 "--pin checks its value" -- "$GPUSIM" synth --pin sideways
expect_exit 2 "--sm-threads without --mem-threads" -- "$GPUSIM" synth --sm-threads 2
expect_exit 0 "presets lists the presets" -- "$GPUSIM" presets
contains "$TMP/out" "gtx480" "presets lists gtx480"
expect_exit 0 "version" -- "$GPUSIM" version
finish
