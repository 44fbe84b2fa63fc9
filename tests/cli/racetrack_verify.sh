#!/usr/bin/env bash
# CLI: every workload verifies at tiny size with both racetrack register
# files (fermi15-rm: Mao's RMWS with the piggyback write buffer;
# fermi15-rm-lrr: Liang's 256 KB RM with preshifting and the priority write
# buffer): values never depend on the register file's timing (issue 15).
source "$(dirname "$0")/../support/cli_lib.sh"

wls=$("$GPUSIM" list | awk '/^presets/ {exit} /^  [a-z0-9_]/ {print $1}')
n=0
for w in $wls; do
    n=$((n + 1))
    for c in fermi15-rm fermi15-rm-lrr; do
        expect_exit 0 "$w verifies with $c" -- "$GPUSIM" run $w --size tiny -q -c $c -o sim.mode=timing --threads 1
    done
done
[ "$n" -ge 54 ]; ok $? "all $n workloads were run"
finish
