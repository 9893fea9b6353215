#!/usr/bin/env bash
# CI: the fleet calibration through a real Slurm, on a one-node cluster made on this machine.
#
# 1. scripts/slurm/submit.sh refuses bad flags (one line, exit 2, nothing written); needs no Slurm.
# 2. Installs Debian's slurm-wlm and munge where they are missing, starts munged, slurmctld and slurmd
#    with a slurm.conf generated into a temporary folder (this host's name, cpus and memory; spool,
#    state, logs, munge key and socket all in that folder; ports that are free), and checks that a job
#    step runs.
# 3. Submits scripts/slurm/submit.sh --nodes 1 --mode smoke, waits for the job (at most
#    MEMBOUND_SLURM_WAIT_S, default 300 s), checks that it completed, that the node's profile was
#    gathered and that the fleet summary was printed, and prints the job's log.
# The daemons it started are stopped on exit, by their pid files. Where this machine cannot run a Slurm
# cluster (not root, no package, a daemon that does not start, a job step that cannot run) it says why
# with the evidence and exits 0 with SKIPPED; a failure of membound's scripts is a failure (exit 1).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
started=$(date +%s)
wait_s=${MEMBOUND_SLURM_WAIT_S:-300}

say() { printf '[slurm %3ss] %s\n' "$(( $(date +%s) - started ))" "$*"; }
skip() {
  say "SKIPPED: $1"
  shift
  for line in "$@"; do printf '  evidence: %s\n' "$line"; done
  exit 0
}
fail() { say "FAILED: $*"; exit 1; }
# The last lines of a log, for evidence.
tail_of() { [ -f "$1" ] && tail -n "${2:-3}" "$1" | tr -s ' ' || echo "($1 not written)"; }

# ---- 1. the submit wrapper's flag checks ------------------------------------------------------------
say "submit.sh: bad flags are refused with one line and exit status 2, nothing written"
scratch=$(mktemp -d)
mkdir -p "$scratch/taken" && touch "$scratch/taken/profile.json"
refused() {
  local want=$1; shift
  local err status
  err=$("$root/scripts/slurm/submit.sh" --dry-run "$@" 2>&1 >/dev/null); status=$?
  [ $status -eq 2 ] || fail "submit.sh $* must exit 2, exited $status: $err"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "submit.sh $* must say one line, said: $err"
  case $err in "membound: $want"*) ;; *) fail "submit.sh $* must say 'membound: $want...', said: $err" ;; esac
  printf '  refused: submit.sh %s\n    %s\n' "$*" "$err"
}
refused "nodes must be given" --mode quick
refused "nodes must be a whole number" --nodes 0
refused "nodes must be a whole number" --nodes two
refused "mode must be one of smoke, quick, standard, full" --nodes 2 --mode fast
refused "partition must be a Slurm partition name" --nodes 2 --partition 'gpu nodes'
refused "time must be a Slurm time limit" --nodes 2 --time soon
refused "unknown option: --node" --node 2
refused "out must be a new or empty folder" --nodes 2 --out "$scratch/taken"
refused "out must be a directory" --nodes 2 --out "$scratch/taken/profile.json"
refused "--out needs a value" --nodes 2 --out
dry=$("$root/scripts/slurm/submit.sh" --nodes 2 --partition gpu --mode quick --out "$scratch/new" --dry-run) \
  || fail "submit.sh --dry-run with good flags must succeed: $dry"
case $dry in
  *"--nodes=2"*"--partition=gpu"*"--exclusive"*"calibrate-fleet.sbatch --home $root --mode quick --out $scratch/new"*) ;;
  *) fail "submit.sh --dry-run printed an unexpected command: $dry" ;;
esac
[ ! -e "$scratch/new" ] || fail "submit.sh --dry-run must write nothing, yet $scratch/new exists"
printf '  accepted: %s\n' "$dry"
rm -rf "$scratch"

# ---- 2. a one-node Slurm cluster ---------------------------------------------------------------------
[ "$(id -u)" -eq 0 ] || skip "a Slurm cluster on this machine needs root (slurmd starts jobs as their users)" \
  "id: $(id)"
missing=()
for tool in munged mungekey slurmctld slurmd sbatch srun scontrol sinfo; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing slurm-wlm and munge (missing: ${missing[*]})"
  apt_log=$(mktemp)
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      slurm-wlm munge; } >"$apt_log" 2>&1; then
    skip "Debian's slurm-wlm and munge could not be installed" "$(tail_of "$apt_log" 2)"
  fi
  rm -f "$apt_log"
fi
say "$(slurmd -V), $(munged -V 2>&1 | head -1 | cut -d" " -f1)"

tmp=$(mktemp -d /tmp/membound-slurm.XXXXXX)
chmod 711 "$tmp"   # munged wants every folder above its socket searchable by all

cleanup() {
  local pidfile pid i
  [ -z "${job:-}" ] || scancel "$job" 2>/dev/null
  for pidfile in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge-run/munged.pid"; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || continue
    for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  if [ -n "${MEMBOUND_SLURM_KEEP:-}" ]; then say "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

mkdir -p "$tmp/munge" "$tmp/munge-run" "$tmp/spool/slurmd" "$tmp/spool/state" "$tmp/log"
chmod 700 "$tmp/munge"; chmod 755 "$tmp/munge-run"
mungekey --create --keyfile="$tmp/munge/munge.key" 2>"$tmp/log/mungekey.log" \
  || skip "mungekey could not make a key" "$(tail_of "$tmp/log/mungekey.log" 1)"
socket="$tmp/munge-run/munge.socket"
munged --socket="$socket" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge-run/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed" 2>>"$tmp/log/munged.log" \
  || skip "munged did not start" "$(tail_of "$tmp/log/munged.log" 2)"
munge -n -S "$socket" | unmunge -S "$socket" >/dev/null 2>"$tmp/log/unmunge.log" \
  || skip "munge cannot decode its own credential" "$(tail_of "$tmp/log/unmunge.log" 1)"

# Free ports, so that a cluster already on this machine (or another CI run) is left alone.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctld_port=""
for try in $(seq 20); do
  p=$(( 20000 + RANDOM % 20000 ))
  if port_free "$p" && port_free $(( p + 1 )); then ctld_port=$p; break; fi
done
[ -n "$ctld_port" ] || skip "no two free ports found between 20000 and 40000"

# This host as slurmd sees it: NodeName=<host> CPUs= Boards= SocketsPerBoard= CoresPerSocket= ThreadsPerCore= RealMemory=
node_line=$(slurmd -C 2>/dev/null | head -1)
node=$(printf '%s\n' "$node_line" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
[ -n "$node" ] || skip "slurmd -C did not describe this host" "slurmd -C: $(slurmd -C 2>&1 | head -1)"
cat > "$tmp/slurm.conf" <<EOF
# One-node cluster of scripts/ci/slurm.sh; everything under $tmp.
ClusterName=membound-ci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$(( ctld_port + 1 ))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/spool/state
SlurmdSpoolDir=$tmp/spool/slurmd
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmdDebug=info
# No cgroups needed: processes tracked through /proc, tasks not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/builtin
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=30 State=UP
EOF
# Only this cluster: nothing of a Slurm job that CI itself may run in.
for v in $(compgen -e | grep '^SLURM_'); do unset "$v"; done
export SLURM_CONF="$tmp/slurm.conf"
say "one-node cluster: $node_line, ports $ctld_port/$(( ctld_port + 1 )), in $tmp"

slurmctld -f "$SLURM_CONF" 2>>"$tmp/log/slurmctld.log" \
  || skip "slurmctld did not start" "$(tail_of "$tmp/log/slurmctld.log" 2)"
slurmd -f "$SLURM_CONF" 2>>"$tmp/log/slurmd.log" \
  || skip "slurmd did not start" "$(tail_of "$tmp/log/slurmd.log" 2)"
state=''
for i in $(seq 60); do
  state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || skip "the node did not become idle within 30 s (state: ${state:-none})" \
  "slurmctld: $(tail_of "$tmp/log/slurmctld.log" 1)" "slurmd: $(tail_of "$tmp/log/slurmd.log" 1)"
probe=$(cd "$tmp" && timeout 60 srun --nodes=1 --ntasks=1 --time=1 hostname 2>&1) \
  || skip "slurmd cannot run a job step here" "srun: $(printf '%s' "$probe" | tail -1)" \
      "slurmd: $(tail_of "$tmp/log/slurmd.log" 1)"
say "node $node idle; a job step ran (srun hostname: $probe)"

# ---- 3. the fleet calibration through Slurm ----------------------------------------------------------
jar="$root/cli/target/membound.jar"
if [ ! -f "$jar" ]; then
  say "building $jar"
  (cd "$root" && mvn -B -q -ntp package -DskipTests) || fail "the build of $jar failed"
fi
out="$tmp/fleet"
say "submitting: scripts/slurm/submit.sh --nodes 1 --partition ci --mode smoke --out $out"
submitted=$("$root/scripts/slurm/submit.sh" --nodes 1 --partition ci --mode smoke --out "$out") \
  || fail "submit.sh did not submit: $submitted"
printf '%s\n' "$submitted" | sed 's/^/  /'
job=$(printf '%s\n' "$submitted" | sed -n 's/^submitted job \([0-9][0-9]*\):.*/\1/p')
[ -n "$job" ] || fail "submit.sh did not say which job it submitted"

deadline=$(( $(date +%s) + wait_s ))
job_state='' last=''
while :; do
  info=$(scontrol show job -o "$job" 2>/dev/null)
  job_state=$(printf '%s\n' "$info" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  [ "$job_state" = "$last" ] || say "job $job: ${job_state:-unknown}"
  last=$job_state
  case $job_state in
    PENDING|CONFIGURING|RUNNING|COMPLETING|'') ;;
    *) break ;;
  esac
  if [ "$(date +%s)" -ge "$deadline" ]; then
    [ ! -f "$out/slurm-$job.out" ] || sed 's/^/  | /' "$out/slurm-$job.out"
    fail "job $job still ${job_state:-unknown} after ${wait_s} s (MEMBOUND_SLURM_WAIT_S); node log: $(tail_of "$out/logs/$node.log" 2)"
  fi
  sleep 2
done
exit_code=$(printf '%s\n' "$info" | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p')
say "job $job: $job_state, exit code $exit_code; its log ($out/slurm-$job.out):"
[ -f "$out/slurm-$job.out" ] || fail "job $job left no log at $out/slurm-$job.out"
sed 's/^/  | /' "$out/slurm-$job.out"
if [ "$job_state" != COMPLETED ] || [ "$exit_code" != 0:0 ]; then
  say "node log ($out/logs/$node.log):"
  [ ! -f "$out/logs/$node.log" ] || tail -n 20 "$out/logs/$node.log" | sed 's/^/  | /'
  fail "job $job ended $job_state with exit code $exit_code"
fi

profiles=$(ls "$out/nodes/$node/"*-*Z.json 2>/dev/null)
[ "$(printf '%s' "$profiles" | grep -c .)" -eq 1 ] \
  || fail "one profile must be gathered in $out/nodes/$node/, found: ${profiles:-none}"
grep -q '"smoke-run"' "$profiles" || fail "the gathered profile $profiles must be flagged as a smoke run"
grep -q "^fleet of 1 node in $out/nodes;" "$out/fleet.txt" || fail "fleet.txt must summarize one node: $(head -1 "$out/fleet.txt")"
grep -q "^nodes: $node\$" "$out/fleet.txt" || fail "fleet.txt must name node $node"
grep -q "cpu/ceiling/" "$out/fleet.txt" || fail "fleet.txt must list the ceilings"
grep -Eq "\"name\" *: *\"$node\"" "$out/fleet.json" || fail "fleet.json must name node $node"
grep -q "profiles gathered from 1 of 1 node(s)" "$out/slurm-$job.out" || fail "the job log must report the profiles gathered"
grep -q "^fleet of 1 node" "$out/slurm-$job.out" || fail "the job log must print the fleet summary"
say "PASSED: job $job completed, profile $(basename "$profiles") gathered from $node, fleet summary printed (fleet.txt, fleet.json)"
