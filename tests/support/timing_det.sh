#!/usr/bin/env bash
# tests/support/timing_det.sh <gpusim> <workload> [threads...]: run the
# workload at tiny size in timing mode for each thread count (default 1 2 4);
# every run must verify against the CPU reference, and the statistics JSON
# (all but the "host" object) must be byte-identical to the first run's.
# Run by ctest as wl_<name>_timing (see CMakeLists.txt).
GPUSIM=${1:?usage: $0 gpusim workload [threads...]}
W=${2:?workload}
shift 2
THREADS=("$@")
[ ${#THREADS[@]} -eq 0 ] && THREADS=(1 2 4)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
nohost() { sed '/"host": {/,$d' "$1"; }
n=0 fail=0
for t in "${THREADS[@]}"; do
  n=$((n + 1))
  if "$GPUSIM" run "$W" --size tiny -q -o sim.mode=timing --threads "$t" --pin none \
       --stats "$TMP/$t.json" >"$TMP/$t.out" 2>&1; then
    echo "ok $n - $W tiny, timing mode, --threads $t: verified"
  else
    echo "not ok $n - $W tiny, timing mode, --threads $t: failed"; sed 's/^/# /' "$TMP/$t.out" | head -20
    fail=$((fail + 1)); continue
  fi
  if [ "$t" != "${THREADS[0]}" ]; then
    n=$((n + 1))
    if cmp -s <(nohost "$TMP/${THREADS[0]}.json") <(nohost "$TMP/$t.json"); then
      echo "ok $n - statistics for --threads $t identical to --threads ${THREADS[0]}"
    else
      echo "not ok $n - statistics for --threads $t differ from --threads ${THREADS[0]}"
      diff <(nohost "$TMP/${THREADS[0]}.json") <(nohost "$TMP/$t.json") | head -20 | sed 's/^/# /'
      fail=$((fail + 1))
    fi
  fi
done
echo "1..$n"
[ "$fail" -eq 0 ]
