#!/usr/bin/env bash
# The Slurm CI job (issue 8): installs slurm-wlm and munge from Debian, brings up a single-node cluster
# on loopback, submits the quickstart config as a job array through scripts/slurm_array.sh, and checks
# that the collected rows equal those of a local `run -j 2` (timing columns aside). Then it deletes one
# shard's task files and checks that --resubmit-missing submits exactly that shard and restores them.
# Needs root (it writes /etc/slurm and starts daemons). Usage: tests/slurm/slurm_test.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
bin=$build/sparsesvm
shards=3
tmp=$(mktemp -d /tmp/slurm_test.XXXXXX)
chmod 755 "$tmp"
fail() { echo "slurm_test: FAIL: $*" >&2; exit 1; }
step() { echo "slurm_test: $*"; }

install_slurm() {
  bash "$root/scripts/install_packages.sh" slurm-wlm munge
}

# munged as user munge with its socket in /run/munge; slurmctld and slurmd as root with no cgroups.
start_cluster() {
  mkdir -p /run/munge /var/log/munge /var/lib/munge /etc/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge
  chmod 755 /run/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
  pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 50); do munge -n </dev/null >/dev/null 2>&1 && break; sleep 0.2; done
  munge -n </dev/null | unmunge >/dev/null || fail "munged does not answer"

  local node host
  host=$(hostname -s)
  node=$(slurmd -C | head -1)
  mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
  cat > /etc/slurm/slurm.conf <<EOF
ClusterName=ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  pkill -x slurmctld || true
  pkill -x slurmd || true
  sleep 1
  slurmctld -c -i
  slurmd -c
  for _ in $(seq 100); do
    sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)' && return
    sleep 0.3
  done
  tail -20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
  fail "the node did not come up: $(sinfo 2>&1)"
}

# Waits until the job has ended (polling scontrol, not sbatch --wait); fails unless it COMPLETED.
wait_for_job() {
  local job=$1 state=""
  for _ in $(seq 1200); do
    state=$(scontrol show job "$job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' ')
    if [[ -n "$state" && ! "$state" =~ (PENDING|RUNNING|CONFIGURING|COMPLETING) ]]; then
      [[ "$state" == "COMPLETED " ]] && return
      fail "job $job ended $state: $(cat "$tmp"/slurm/slurm/*.out 2>/dev/null | tail -20)"
    fi
    sleep 0.5
  done
  fail "job $job did not end in 10 minutes (state $state)"
}

# results.csv without the timing columns, which legitimately differ between runs.
rows() {
  /usr/bin/python3 - "$1/results.csv" <<'PYTHON'
import csv, sys
for row in csv.DictReader(open(sys.argv[1], newline="")):
    row.pop("train_time_s"); row.pop("task_time_s"); row.pop("objective_seconds_trace")
    print(row)
PYTHON
}

install_slurm
start_cluster
step "cluster up: $(sinfo -h -o '%P %D %t %c')"

cd "$tmp"
"$bin" run "$root/configs/quickstart.yaml" -q -j 2 --out "$tmp/local" || fail "local run exited $?"

# An override with a tab and a quote reaches the jobs intact (--wrap runs under /bin/sh).
submitted=$(SPARSESVM=$bin bash "$root/scripts/slurm_array.sh" --shards $shards --out "$tmp/slurm" --time 00:20:00 \
  --throttle 2 "$root/configs/quickstart.yaml" $'description=it\'s a\ttest')
step "$submitted"
collect_job=$(sed -n 's/.* collect job \([0-9]*\) .*/\1/p' <<<"$submitted")
array_job=$(sed -n 's/^submitted array \([0-9]*\) .*/\1/p' <<<"$submitted")
[[ -n "$collect_job" && -n "$array_job" ]] || fail "could not read the job ids from: $submitted"
scontrol show job "$array_job" | grep -q "JobName=sparsesvm-quickstart" || fail "array job not named"
wait_for_job "$array_job"
wait_for_job "$collect_job"
diff <(rows "$tmp/local") <(rows "$tmp/slurm") >/dev/null || fail "Slurm rows differ from the local run"
grep -q "total: 50 done, 0 missing" "$tmp"/slurm/slurm/collect_*.out || fail "collect log lacks status: $(cat "$tmp"/slurm/slurm/collect_*.out)"
[[ $(ls "$tmp"/slurm/slurm/"$array_job"_*.out | wc -l) -eq $shards ]] || fail "expected $shards shard logs"
grep -qF 'description: "it'"'"'s a\ttest"' "$tmp/slurm/config.yaml" || fail "the override did not reach the jobs intact: $(grep description "$tmp/slurm/config.yaml")"
step "array of $shards shards: rows equal the local run -j 2"

# A lost shard (its task files deleted, as after a time limit) is the only one resubmitted.
victim_shard=1
before=$(cd "$tmp/slurm/tasks" && ls | wc -l)
"$bin" status "$tmp/slurm" --shards $shards >/dev/null || fail "status of the complete run exited $?"
# The shard's tasks: those a fresh run of shard 1 alone writes.
"$bin" run "$root/configs/quickstart.yaml" -q --shard $victim_shard/$shards --out "$tmp/only_shard" || fail "shard run"
for file in "$tmp"/only_shard/tasks/*.csv; do rm "$tmp/slurm/tasks/$(basename "$file")"; done
resubmitted=$(SPARSESVM=$bin bash "$root/scripts/slurm_array.sh" --shards $shards --out "$tmp/slurm" --resubmit-missing \
  "$root/configs/quickstart.yaml" $'description=it\'s a\ttest')
step "$resubmitted"
grep -q "(shards $victim_shard of $shards)" <<<"$resubmitted" || fail "resubmitted other shards: $resubmitted"
wait_for_job "$(sed -n 's/^submitted array \([0-9]*\) .*/\1/p' <<<"$resubmitted")"
wait_for_job "$(sed -n 's/.* collect job \([0-9]*\) .*/\1/p' <<<"$resubmitted")"
[[ $(cd "$tmp/slurm/tasks" && ls | wc -l) -eq $before ]] || fail "the resubmitted shard did not restore its tasks"
diff <(rows "$tmp/local") <(rows "$tmp/slurm") >/dev/null || fail "rows after the resubmission differ from the local run"
nothing=$(SPARSESVM=$bin bash "$root/scripts/slurm_array.sh" --shards $shards --out "$tmp/slurm" --resubmit-missing \
  "$root/configs/quickstart.yaml" $'description=it\'s a\ttest')
grep -q "nothing to resubmit" <<<"$nothing" || fail "a complete run was resubmitted: $nothing"
step "--resubmit-missing submitted shard $victim_shard alone and restored its rows"
rm -rf "$tmp"
echo "slurm_test: all checks passed"
