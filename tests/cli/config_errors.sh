#!/usr/bin/env bash
# CLI: configuration listing, resolution and error reporting (exit 2,
# file:line:key in every message, all errors reported, did-you-mean hints).
source "$(dirname "$0")/../support/cli_lib.sh"

expect_exit 0 "config --list works" -- "$GPUSIM" config --list
contains "$TMP/out" "sync.quantum" "config --list shows sync.quantum"
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

expect_exit 2 "exact mode refuses quantum > lookahead" -- "$GPUSIM" synth -q -o sync.quantum=20ns
contains "$TMP/err" "quantum" "message names the quantum key"
contains "$TMP/err" "lookahead" "and the lookahead"
expect_exit 0 "relaxed mode accepts quantum > lookahead" -- "$GPUSIM" synth -q -o sync.quantum=20ns -o sync.relaxed=true

expect_exit 2 "address-map geometry is checked across sections" -- "$GPUSIM" config --show gtx480 -o dram.banks=8 -o mem.sub_per_partition=1
contains "$TMP/err" "dram.banks" "message names dram.banks"
contains "$TMP/err" "mem.sub_per_partition" "and mem.sub_per_partition (all errors reported)"

# dram.addr_map (docs/addrmap.md): validated at load against the geometry.
expect_exit 2 "address map: an unknown letter is refused" -- "$GPUSIM" config --show gtx480 -o 'dram.addr_map=dramid@8;RRRRRRRRRRRR.BBBCXCCB.CCSSSSSS'
contains "$TMP/err" "-o: key 'dram.addr_map'" "message names -o and dram.addr_map"
contains "$TMP/err" "unknown letter 'X'" "message names the letter"
printf 'include = gtx480\ndram.banks = 8\ndram.addr_map = dramid@8;0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS\n' >"$TMP/map.cfg"
expect_exit 2 "address map: bank bits must match dram.banks" -- "$GPUSIM" config --show "$TMP/map.cfg"
contains "$TMP/err" "map.cfg:3: key 'dram.addr_map'" "message has the map's file:line"
contains "$TMP/err" "4 B bits (16 banks) but dram.banks = 8" "message names both counts"
expect_exit 2 "address map: D bits must match mem.n_partitions" -- "$GPUSIM" config --show gtx480 -o 'dram.addr_map=RRRRRRRRRRRR.BBBCCCCB.DDD.CCSSSSSS'
contains "$TMP/err" "3 D bits (8 channels) but mem.n_partitions = 6" "message names the channel count"
expect_exit 2 "address map: unused bits below used ones are refused" -- "$GPUSIM" config --show gtx480 -o 'dram.addr_map=dramid@8;RRRRRRRRRRR0.BBBCCCCB.CCSSSSSS'
contains "$TMP/err" "would alias" "message explains the hole"
printf 'gpu.n_sm = 4\ndram.banks = 8\n' >"$TMP/own.cfg"
expect_exit 2 "address map: with the default string, the other key's line is reported" -- "$GPUSIM" config --show "$TMP/own.cfg"
contains "$TMP/err" "own.cfg:2: key 'dram.banks' = 8: address map: the map has 4 B bits" "message has dram.banks' file:line"
expect_exit 0 "address map: DDR3 8 banks x 32768 rows accepted" -- "$GPUSIM" config --show gtx480 -o dram.banks=8 -o dram.bank_groups=2 -o dram.rows=32768 -o 'dram.addr_map=dramid@8;RRRRRRRRRRRRRRR.BBCCCB.CCSSSSSS'
expect_exit 0 "address map: 16 channels with D bits accepted" -- "$GPUSIM" config --show gtx480 -o mem.n_partitions=16 -o 'dram.addr_map=RRRRRRRRRRRR.BBBCCCCB.DDDD.CCSSSSSS'

# Keys renamed to the spec's names (issue 10; sim/cfg/registry.c): the old
# name is refused with file:line and "renamed to 'new'", in a file and as -o.
renamed="sched.n_sched:sm.n_sched:2 smem_banks.n_banks:smem.n_banks:32 smem_banks.width:smem.width:4
smem_banks.warp_parts:smem.warp_parts:1 smem_banks.wide:smem.wide:phases dispatch.policy:cta.policy:rr
icnt_net.topology:icnt.topology:xbar icnt_net.flit:icnt.flit:32 icnt_net.header:icnt.header:8
icnt_net.inj_buf:icnt.inj_buf:9 icnt_net.rx_fifo_flits:icnt.rx_fifo_flits:18
icnt_net.mesh_cols:icnt.mesh_cols:6 icnt_net.mesh_rows:icnt.mesh_rows:4
icnt_net.hop_latency:icnt.hop_latency:1 engine.quantum:sync.quantum:0ps engine.relaxed:sync.relaxed:false
engine.ring_slots:sync.ring_slots:1024 engine.spin:sync.spin:20000 engine.max_time:sync.max_time:0ps"
for r in $renamed; do
  IFS=: read -r old new val <<<"$r"
  printf 'include = gtx480\n%s = %s\n' "$old" "$val" >"$TMP/renamed.cfg"
  expect_exit 2 "$old in a file is refused" -- "$GPUSIM" config --show "$TMP/renamed.cfg"
  contains "$TMP/err" "renamed.cfg:2: unknown key '$old' (renamed to '$new')" "$old: file:line, key and new name"
  expect_exit 2 "-o $old is refused" -- "$GPUSIM" config --show gtx480 -o "$old=$val"
  contains "$TMP/err" "-o: unknown key '$old' (renamed to '$new')" "-o $old: key and new name"
  expect_exit 0 "-o $new is accepted" -- "$GPUSIM" config --show gtx480 -o "$new=$val"
  grep -Eq "^${new//./\\.} = $val +# -o" "$TMP/out"; ok $? "-o $new=$val takes effect"
  ! grep -q "^$old " "$TMP/out"; ok $? "config --show does not print $old"
done
expect_exit 2 "a run with an old name exits 2" -- "$GPUSIM" run vectoradd --size tiny -q -o dispatch.policy=rr
contains "$TMP/err" "renamed to 'cta.policy'" "run: hint names cta.policy"

expect_exit 2 "unknown command" -- "$GPUSIM" frobnicate
expect_exit 2 "unknown option" -- "$GPUSIM" synth --frob
expect_exit 2 "--threads needs a number" -- "$GPUSIM" synth --threads zero
expect_exit 2 "--pin checks its value" -- "$GPUSIM" synth --pin sideways
expect_exit 2 "--sm-threads without --mem-threads" -- "$GPUSIM" synth --sm-threads 2
expect_exit 0 "presets lists the presets" -- "$GPUSIM" presets
contains "$TMP/out" "gtx480" "presets lists gtx480"
expect_exit 0 "version" -- "$GPUSIM" version

# icnt.topology = xbar_iq (docs/icnt.md): its rules name the key at fault
printf 'include = gtx480\nicnt.topology = xbar_iq\nsync.relaxed = true\nsync.quantum = 20ns\n' >"$TMP/iq.cfg"
expect_exit 2 "xbar_iq with relaxed mode is refused" -- "$GPUSIM" config --show "$TMP/iq.cfg"
contains "$TMP/err" "sync.relaxed" "the message names sync.relaxed"
expect_exit 2 "xbar_iq with a 4-flit input buffer is refused" -- "$GPUSIM" config --show gtx480 \
  -o icnt.topology=xbar_iq -o icnt.iq_buf_flits=4
contains "$TMP/err" "icnt.iq_buf_flits" "the message names icnt.iq_buf_flits"
expect_exit 0 "xbar_iq with the defaults resolves" -- "$GPUSIM" config --show gtx480 -o icnt.topology=xbar_iq
grep -Eq '^icnt\.iq_alloc_delay *= *1' "$TMP/out"; ok $? "icnt.iq_alloc_delay defaults to 1"
grep -Eq '^icnt\.iq_speedup *= *1' "$TMP/out"; ok $? "icnt.iq_speedup defaults to 1"
expect_exit 2 "icnt.iq_speedup 5 is refused (range 1-4)" -- "$GPUSIM" config --show gtx480 -o icnt.iq_speedup=5
contains "$TMP/err" "icnt.iq_speedup" "the message names icnt.iq_speedup"
finish
