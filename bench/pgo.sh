#!/usr/bin/env bash
# Build gpusim with profile-guided optimisation (NOTE(pgo) in CMakeLists.txt;
# README "Timing mode"), for long sweeps where 10 % of wall time matters:
#   bash bench/pgo.sh [BUILD_DIR]        (default: build-pgo; J=N build jobs)
# 1. configure BUILD_DIR as a Release build with GPUSIM_PGO=generate and
#    build the gpusim executable (instrumented);
# 2. train: the TRAIN workloads at tiny size in timing mode on gtx480, two
#    of them on fermi16-gtsc and at 2 host threads, one in functional mode,
#    and bfs and sgemm small for 100 simulated microseconds (the profiles go
#    to BUILD_DIR/pgo-profile);
# 3. reconfigure the same directory with GPUSIM_PGO=use and rebuild;
# 4. check that the optimised binary gives statistics identical to the
#    instrumented one (the same source without the profile) on the CHECK
#    workloads; stops with exit 1 otherwise.
# The binary is BUILD_DIR/gpusim. A second run starts from fresh profiles.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
b=${1:-$root/build-pgo}
case $b in /*) ;; *) b=$PWD/$b ;; esac
jobs=${J:-$(nproc)}
TRAIN=${TRAIN:-"bfs sgemm hotspot spmv histo transpose lud backprop ii prodcons"}
CHECK=${CHECK:-"bfs sgemm hotspot histo"}
command -v gcc >/dev/null || { echo "pgo.sh: needs GCC" >&2; exit 2; }
export GPUSIM_CONFIG_DIR=${GPUSIM_CONFIG_DIR:-$root/configs}

rm -rf "$b/pgo-profile"
cmake -S "$root" -B "$b" -DCMAKE_BUILD_TYPE=Release -DGPUSIM_PGO=generate -DGPUSIM_PGO_DIR="$b/pgo-profile" >/dev/null
cmake --build "$b" -j "$jobs" --target gpusim_cli >/dev/null
cp "$b/gpusim" "$b/gpusim-instrumented"

run() { "$@" -q --pin none >/dev/null; }
echo "pgo.sh: training ($TRAIN)"
for w in $TRAIN; do run "$b/gpusim" run "$w" --size tiny -o sim.mode=timing --threads 1; done
for w in bfs ii; do
    run "$b/gpusim" run "$w" --size tiny -c fermi16-gtsc -o sim.mode=timing --threads 1
    run "$b/gpusim" run "$w" --size tiny -o sim.mode=timing --threads 2
done
run "$b/gpusim" run sgemm --size tiny -o sim.mode=functional --threads 1
for w in bfs sgemm; do # stops at the time limit (exit 1) with its profile written
    "$b/gpusim" run "$w" --size small -o sim.mode=timing -o sync.max_time=100us --threads 1 -q --pin none \
        >/dev/null 2>&1 || true
done

cmake -S "$root" -B "$b" -DGPUSIM_PGO=use >/dev/null
cmake --build "$b" -j "$jobs" --target gpusim_cli >/dev/null

echo "pgo.sh: checking statistics against the instrumented build ($CHECK)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for w in $CHECK; do
    "$b/gpusim-instrumented" run "$w" --size tiny -o sim.mode=timing --threads 1 -q --pin none --stats "$tmp/a.json" >/dev/null
    "$b/gpusim" run "$w" --size tiny -o sim.mode=timing --threads 1 -q --pin none --stats "$tmp/b.json" >/dev/null
    if python3 - "$tmp/a.json" "$tmp/b.json" <<'EOF'
import json, sys
a, b = (json.load(open(f))["stats"] for f in sys.argv[1:3])
sys.exit(0 if a == b else 1)
EOF
    then echo "  $w: identical"; else echo "  $w: statistics differ" >&2; fail=1; fi
done
rm -f "$b/gpusim-instrumented"
[ $fail = 0 ] || { echo "pgo.sh: the optimised build changed results; do not use it" >&2; exit 1; }
echo "pgo.sh: done: $b/gpusim"
