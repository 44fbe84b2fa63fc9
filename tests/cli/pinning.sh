#!/usr/bin/env bash
# CLI: where engine threads are pinned (NOTE(pin-allowed) in sync/topo.c,
# NOTE(pin-auto) in sync/engine.c), read from the stats' host.per_thread[].cpu
# (-1: not pinned). A run never pins outside the CPUs the process is bound
# to (taskset); the default (auto) pins only a run whose threads take every
# CPU it may use, so side-by-side 1-thread jobs are not stacked on CPU 0.
source "$(dirname "$0")/../support/cli_lib.sh"

cpus() { # cpus <json>: the per-thread CPUs, space-separated
  python3 -c 'import json,sys; print(" ".join(str(t["cpu"]) for t in json.load(open(sys.argv[1]))["host"]["per_thread"]))' "$1"
}
run() { # run <name> [taskset list] -- gpusim args...
  local name=$1 ts=$2; shift 3
  local pre=()
  [ -n "$ts" ] && pre=(taskset -c "$ts")
  "${pre[@]+"${pre[@]}"}" "$GPUSIM" run vectoradd --size tiny -q -o sim.mode=timing --stats "$TMP/$name.json" "$@" \
    >"$TMP/$name.out" 2>"$TMP/$name.err"
  ok $? "$name: runs"
}

ncpu=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
last=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')

run t1 "" -- --threads 1
[ "$(cpus "$TMP/t1.json")" = "-1" ]; ok $? "default pin, 1 thread of $ncpu CPUs: not pinned (got $(cpus "$TMP/t1.json"))"
run t1none "" -- --threads 1 --pin none
[ "$(cpus "$TMP/t1none.json")" = "-1" ]; ok $? "--pin none: not pinned"
run bound1 "$last" -- --threads 2 --pin cores
[ "$(cpus "$TMP/bound1.json")" = "$last $last" ]; ok $? "taskset -c $last, --pin cores, 2 threads: both on CPU $last (got $(cpus "$TMP/bound1.json"))"
run boundauto "$last" -- --threads 1
[ "$(cpus "$TMP/boundauto.json")" = "$last" ]; ok $? "taskset -c $last, default pin, 1 thread takes the binding: pinned to $last (got $(cpus "$TMP/boundauto.json"))"
if [ "$ncpu" -ge 2 ]; then
  run all "" -- --threads "$ncpu"
  got=$(cpus "$TMP/all.json")
  uniq=$(tr ' ' '\n' <<<"$got" | sort -u | grep -vc '^-1$')
  [ "$uniq" -eq "$ncpu" ]; ok $? "default pin, $ncpu threads on $ncpu CPUs: pinned, one per CPU (got $got)"
else
  echo "ok $((T_N += 1)) # SKIP needs 2 CPUs"
fi
cmp -s <(nohost "$TMP/t1.json") <(nohost "$TMP/bound1.json"); ok $? "pinning changes no statistic"
expect_exit 2 "--pin checks its value" -- "$GPUSIM" run vectoradd --size tiny --pin sideways
contains "$TMP/err" "--pin takes auto, none, cores or compact" "the message lists the choices"
finish
