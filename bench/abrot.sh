#!/bin/bash
# bench/abrot.sh: compare the one-thread speed of two or more gpusim binaries
# on a noisy machine. Runs the binaries in rotation, ROUNDS rounds, one
# run at a time, and reports each one's minimum and median user seconds
# and their ratios to the first binary's. Noise on a shared host only adds
# time, so the minimum over rotated runs is the steadiest estimator; on
# the 2-core VM one binary's single runs spread by up to 60 % (session 37).
#
#   bash bench/abrot.sh ROUNDS "RUN ARGS" BIN_A BIN_B [BIN...]
#   bash bench/abrot.sh 8 "bfs --size small -o sync.max_time=200us" old/build/gpusim build/gpusim
#
# RUN ARGS follow `gpusim run`; -c gtx480 -o sim.mode=timing --threads 1 -q
# are added unless given (later options win). Nothing is checked. Needs
# GNU time (/usr/bin/time; Debian: apt-get install time).
set -euo pipefail
if [ ! -x /usr/bin/time ]; then
    echo "abrot: needs GNU time at /usr/bin/time (Debian: sudo apt-get install time)" >&2
    exit 2
fi
if [ $# -lt 4 ]; then
    awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
    exit 2
fi
rounds=$1
args=$2
shift 2
for b in "$@"; do
    [ -x "$b" ] || { echo "abrot: $b is not an executable" >&2; exit 2; }
done
t=$(mktemp)
trap 'rm -f "$t"' EXIT
declare -A times
for ((i = 1; i <= rounds; i++)); do
    for b in "$@"; do
        # shellcheck disable=SC2086
        /usr/bin/time -o "$t" -f %U "$b" run -c gtx480 -o sim.mode=timing --threads 1 -q $args >/dev/null 2>&1 || true
        times[$b]+="$(tail -1 "$t") "
    done
done
for b in "$@"; do echo "$b ${times[$b]}"; done | awk '
function median(a, n,    i, j, x) {
    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
    n = NF - 1; mn = $2
    for (i = 2; i <= NF; i++) { v[i - 1] = $i; if ($i < mn) mn = $i }
    md = median(v, n)
    if (NR == 1) { m0 = mn; d0 = md }
    runs = ""; for (i = 2; i <= NF; i++) runs = runs " " $i
    printf "%-40s min %7.3f s (%s)  median %7.3f s (%s)  runs:%s\n", $1, mn, (m0 > 0 ? sprintf("%.3fx", mn / m0) : "-"),
           md, (d0 > 0 ? sprintf("%.3fx", md / d0) : "-"), runs
}'
