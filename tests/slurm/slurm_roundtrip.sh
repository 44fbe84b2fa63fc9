#!/usr/bin/env bash
# tests/slurm/slurm_roundtrip.sh GPUSIM: a sweep through a real Slurm, end to end.
#
# As root on Debian: installs slurmctld, slurmd, slurm-client and munge with
# apt-get when they are missing, starts a private one-node cluster on this
# machine (munged, slurmctld, slurmd with their own key, socket, ports
# 16817/16818, state and logs under one temporary directory, nothing under
# /etc touched), submits a small sweep (2 workloads x 2 variants, tiny,
# timing mode) with `gpusim sweep --slurm --submit`, waits for the array,
# and checks that `gpusim sweep --collect` finds every job and that every
# result equals the same sweep run locally (all but the "host" object),
# then that a resubmission runs only what is missing. Stops everything it
# started on exit. The setup is the one docs/experiments.md ("Slurm")
# describes for trying this on a laptop.
#
# TAP. Skips (exit 0, "1..0 # SKIP why") where it cannot run: not root, no
# apt-get and no Slurm, the install fails (no network). Under ctest it skips
# unless GPUSIM_SLURM_TEST=1 is set (it installs packages and starts daemons).
# Env: KEEP=1 keeps the temporary directory for a look at the logs.
set -u
GPUSIM=${1:?usage: $0 path/to/gpusim}
GPUSIM=$(readlink -f "$GPUSIM")

skip() { echo "1..0 # SKIP $*"; exit 0; }
if [ "${GPUSIM_SLURM_CTEST:-0}" = 1 ] && [ "${GPUSIM_SLURM_TEST:-0}" != 1 ]; then
  skip "set GPUSIM_SLURM_TEST=1 to run (installs Slurm and munge, starts a one-node cluster)"
fi
[ "$(id -u)" -eq 0 ] || skip "needs root (installs packages, starts slurmd)"
need_install=0
for t in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || need_install=1
done
if [ $need_install -eq 1 ]; then
  command -v apt-get >/dev/null 2>&1 || skip "Slurm is not installed and there is no apt-get"
  echo "# installing slurmctld slurmd slurm-client munge with apt-get"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      slurmctld slurmd slurm-client munge) >/tmp/gpusim_slurm_apt.log 2>&1 ||
    skip "apt-get install of Slurm failed (see /tmp/gpusim_slurm_apt.log)"
fi
export PATH=$PATH:/usr/sbin

T_N=0
T_FAIL=0
ok() { # ok <status> <description>
  T_N=$((T_N + 1))
  if [ "$1" -eq 0 ]; then echo "ok $T_N - $2"; else echo "not ok $T_N - $2"; T_FAIL=$((T_FAIL + 1)); fi
}
nohost() { sed '/"host": {/,$d' "$1"; }

W=$(mktemp -d /tmp/gpusim_slurm.XXXXXX)
chmod 755 "$W"
cleanup() {
  [ -f "$W/slurmd.pid" ] && kill "$(cat "$W/slurmd.pid")" 2>/dev/null
  [ -f "$W/slurmctld.pid" ] && kill "$(cat "$W/slurmctld.pid")" 2>/dev/null
  [ -S "$W/munge/munge.sock" ] && munged --stop --socket="$W/munge/munge.sock" >/dev/null 2>&1
  sleep 1
  if [ "${KEEP:-0}" = 1 ]; then echo "# kept $W"; else rm -rf "$W"; fi
}
trap cleanup EXIT

# --- a private one-node cluster
mkdir -p "$W/munge" "$W/state" "$W/spool" "$W/log"
chmod 755 "$W/munge"
dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$W/munge/munge.key"
munged --force --socket="$W/munge/munge.sock" --key-file="$W/munge/munge.key" \
  --pid-file="$W/munge/munged.pid" --log-file="$W/munge/munged.log" --seed-file="$W/munge/munged.seed"
ok $? "munged started"
host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
cat >"$W/slurm.conf" <<EOF
# One node, everything private to this directory (docs/experiments.md, "Slurm").
ClusterName=gpusimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$W/munge/munge.sock
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=gpusim Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$W/slurm.conf
slurmctld -f "$SLURM_CONF"
ok $? "slurmctld started"
slurmd -f "$SLURM_CONF"
ok $? "slurmd started"
idle=1
for _ in $(seq 60); do
  if [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; then idle=0; break; fi
  sleep 0.5
done
ok $idle "the node is idle"
if [ $idle -ne 0 ]; then
  tail -n 20 "$W/log/slurmctld.log" "$W/log/slurmd.log" | sed 's/^/# /'
  echo "1..$T_N"
  exit 1
fi

# --- the sweep
SW=$W/roundtrip.sweep
cat >"$SW" <<'EOF'
preset    = gtx480
overrides = sim.mode=timing
variant.gto = none
variant.lrr = sched.policy=lrr
baseline  = gto
workloads = vectoradd bfs
sizes     = tiny
EOF
# wait_array <job id>: until squeue no longer lists it (at most 5 minutes).
wait_array() {
  for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  return 1
}

"$GPUSIM" sweep "$SW" -o "$W/slurm_out" --slurm --chunk 3 --time 10 --submit >"$W/submit.out" 2>&1
ok $? "gpusim sweep --slurm --submit"
sed 's/^/# /' "$W/submit.out"
grep -q '2 array tasks for 4 unfinished jobs, chunks of 3' "$W/submit.out"; ok $? "4 jobs in chunks of 3: 2 array tasks"
jobid=$(sed -n 's/.*submitted job array \([0-9]*\).*/\1/p' "$W/submit.out")
[ -n "$jobid" ]; ok $? "sbatch returned a job id ($jobid)"
wait_array "$jobid"; ok $? "the array finished"
"$GPUSIM" sweep "$SW" -o "$W/slurm_out" --collect >"$W/collect.out" 2>&1
ok $? "--collect: every job done"
sed 's/^/# /' "$W/collect.out"
[ "$(ls "$W/slurm_out/jobs" | grep -c '\.json$')" -eq 4 ]; ok $? "4 results in OUT/jobs"
ls "$W/slurm_out/slurm/logs/${jobid}_"*.out >/dev/null 2>&1; ok $? "array task logs in OUT/slurm/logs"

# --- the same sweep locally: same ids, same results
"$GPUSIM" sweep "$SW" -o "$W/local_out" -j 2 >/dev/null 2>&1
ok $? "the same sweep run locally"
same=0
for f in "$W/local_out/jobs"/*.json; do
  g=$W/slurm_out/jobs/$(basename "$f")
  if [ ! -f "$g" ] || ! cmp -s <(nohost "$f") <(nohost "$g"); then
    echo "# differs or missing: $(basename "$f")"
    same=1
  fi
done
ok $same "every Slurm result equals the local one (all but host)"
cmp -s "$W/local_out/sweep.json" "$W/slurm_out/sweep.json"; ok $? "sweep.json is the same"

# --- resubmission runs only what is missing
# The victim is the sweep's first job, so it sits in chunk 0 beside two
# finished jobs whatever the job ids (they hash the effective configuration,
# so the file names' order changes whenever a configuration key is added).
victim=$(sed -n 's/.*"file": "jobs\/\([^"]*\)".*/\1/p' "$W/slurm_out/sweep.json" | head -1)
[ -n "$victim" ] && [ -f "$W/slurm_out/jobs/$victim" ]; ok $? "the first job of sweep.json ($victim) is in OUT/jobs"
keep=$(stat -c '%n %i %Y' $(ls -d "$W/slurm_out/jobs"/*.json | grep -v "$victim"))
rm "$W/slurm_out/jobs/$victim"
"$GPUSIM" sweep "$SW" -o "$W/slurm_out" --slurm --chunk 3 --time 10 --submit >"$W/resubmit.out" 2>&1
ok $? "resubmission"
grep -q '1 array tasks for 1 unfinished jobs' "$W/resubmit.out"; ok $? "only the chunk with the missing job is submitted"
jobid2=$(sed -n 's/.*submitted job array \([0-9]*\).*/\1/p' "$W/resubmit.out")
[ -n "$jobid2" ] && wait_array "$jobid2"; ok $? "the resubmitted array finished"
"$GPUSIM" sweep "$SW" -o "$W/slurm_out" --collect >/dev/null 2>&1; ok $? "--collect: all done again"
cmp -s <(nohost "$W/local_out/jobs/$victim") <(nohost "$W/slurm_out/jobs/$victim"); ok $? "the rerun job equals the local one"
[ "$keep" = "$(stat -c '%n %i %Y' $(echo "$keep" | awk '{print $1}'))" ]; ok $? "finished jobs were not rerun"
grep -q 'chunk 0: 1 jobs to run, 2 already done' "$W"/slurm_out/slurm/logs/"${jobid2}"_*.out
ok $? "the task skipped the chunk's finished jobs"
"$GPUSIM" sweep "$SW" -o "$W/slurm_out" --slurm --chunk 3 --submit >"$W/nothing.out" 2>&1
grep -q 'nothing to submit' "$W/nothing.out"; ok $? "nothing to submit when all are done"

[ $T_FAIL -eq 0 ] || tail -n 20 "$W/log/slurmctld.log" "$W/log/slurmd.log" | sed 's/^/# /'
echo "1..$T_N"
[ $T_FAIL -eq 0 ]
