#!/usr/bin/env bash
# Submits scripts/slurm/calibrate-fleet.sbatch: `membound calibrate` on every allocated node with the same
# settings, each node's profile into OUT/nodes/<node>/, then `membound fleet` over them (OUT/fleet.txt and
# OUT/fleet.json). See docs/fleet.md.
#
#   scripts/slurm/submit.sh --nodes 4 --partition gpu --mode quick --out /shared/membound/fleet-1
#
# Bad flags: one line on stderr, exit status 2, nothing written and nothing submitted.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

usage() {
  cat <<'EOF'
usage: scripts/slurm/submit.sh --nodes N [--partition P] [--mode smoke|quick|standard|full] [--out DIR]
                               [--time LIMIT] [--account A] [--shared] [--dry-run] [-- SBATCH_OPTION...]
  --nodes N       nodes to calibrate, one calibration per node (required)
  --partition P   Slurm partition (default: the cluster's default partition)
  --mode M        calibrate mode, the same on every node (default: standard)
  --out DIR       results folder on storage every node can write; must be new or empty
                  (default: results/fleet/fleet-<UTC time> of this repository)
  --time LIMIT    job time limit in a form sbatch takes, e.g. 30 or 1:00:00 (default: by mode)
  --account A     Slurm account to charge
  --shared        do not ask for whole nodes (default: --exclusive, so no other job disturbs the memory)
  --dry-run       print the sbatch command instead of running it
  -- ...          anything after -- goes to sbatch as it is (e.g. -- --constraint=spark)
EOF
}

fail() { echo "membound: $*" >&2; exit 2; }

nodes='' partition='' mode=standard out='' time_limit='' account='' exclusive=1 dry_run=0
extra=()
need_value() {
  [ $# -ge 2 ] && [ -n "$2" ] && [[ $2 != --* ]] || fail "$1 needs a value: $1 <value> (see --help)"
}
while [ $# -gt 0 ]; do
  case $1 in
    --nodes) need_value "$@"; nodes=$2; shift 2 ;;
    --partition) need_value "$@"; partition=$2; shift 2 ;;
    --mode) need_value "$@"; mode=$2; shift 2 ;;
    --out) need_value "$@"; out=$2; shift 2 ;;
    --time) need_value "$@"; time_limit=$2; shift 2 ;;
    --account) need_value "$@"; account=$2; shift 2 ;;
    --nodes=*|--partition=*|--mode=*|--out=*|--time=*|--account=*)
      set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
    --shared) exclusive=0; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) fail "unknown option: $1 (known: --nodes, --partition, --mode, --out, --time, --account, --shared, --dry-run, --help)" ;;
  esac
done

[ -n "$nodes" ] || fail "nodes must be given: --nodes N"
[[ $nodes =~ ^[1-9][0-9]{0,4}$ ]] || fail "nodes must be a whole number from 1 to 99999: --nodes=$nodes"
case $mode in
  smoke|quick|standard|full) ;;
  *) fail "mode must be one of smoke, quick, standard, full: --mode=$mode" ;;
esac
[ -z "$partition" ] || [[ $partition =~ ^[A-Za-z0-9_.,-]+$ ]] \
  || fail "partition must be a Slurm partition name (letters, digits, _ . , -): --partition=$partition"
[ -z "$account" ] || [[ $account =~ ^[A-Za-z0-9_.-]+$ ]] \
  || fail "account must be a Slurm account name (letters, digits, _ . -): --account=$account"
if [ -n "$time_limit" ]; then
  [[ $time_limit =~ ^([0-9]+-)?[0-9]+(:[0-9]+){0,2}$ ]] \
    || fail "time must be a Slurm time limit such as 30, 1:00:00 or 1-00:00:00: --time=$time_limit"
else
  # A calibration's own length (calibrate --help) with room for JVM start and a busy file system.
  case $mode in smoke) time_limit=10 ;; quick) time_limit=15 ;; standard) time_limit=30 ;; full) time_limit=120 ;; esac
fi

[ -n "$out" ] || out="$here/results/fleet/fleet-$(date -u +%Y%m%dT%H%M%SZ)"
case $out in /*) ;; *) out="$PWD/$out" ;; esac
if [ -e "$out" ] && [ ! -d "$out" ]; then
  fail "out must be a directory: --out=$out is a file"
fi
if [ -d "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  fail "out must be a new or empty folder, so that one run's profiles are not mixed with another's: --out=$out"
fi
[[ $out != *[[:space:]]* ]] || fail "out must not contain spaces (sbatch's --output cannot quote them): --out=$out"

jar="$here/cli/target/membound.jar"
[ -f "$jar" ] || fail "the launcher needs $jar; build it first with: mvn -B -q package -DskipTests (in $here)"

args=(--nodes="$nodes" --ntasks-per-node=1 --time="$time_limit" --job-name=membound-fleet
      --output="$out/slurm-%j.out" --chdir="$out")
[ -z "$partition" ] || args+=(--partition="$partition")
[ -z "$account" ] || args+=(--account="$account")
# A calibration measures the node's memory: no other job beside it, and all of the node's memory.
[ "$exclusive" = 0 ] || args+=(--exclusive --mem=0)
args+=("${extra[@]}" "$here/scripts/slurm/calibrate-fleet.sbatch" --home "$here" --mode "$mode" --out "$out")

if [ "$dry_run" = 1 ]; then
  printf 'sbatch'; printf ' %q' "${args[@]}"; printf '\n'
  exit 0
fi
command -v sbatch >/dev/null || fail "sbatch must be on PATH (run this on a Slurm login node): sbatch not found"

created=0
[ -d "$out" ] || created=1
mkdir -p "$out" || fail "out must be a folder this user can create: --out=$out"
if ! submitted=$(sbatch --parsable "${args[@]}" 2>&1); then
  [ "$created" = 0 ] || rmdir "$out" 2>/dev/null
  fail "sbatch refused the job: $(printf '%s' "$submitted" | tr '\n' ' ')"
fi
job=${submitted%%;*}
echo "submitted job $job: calibrate --$mode on $nodes node(s)${partition:+ of partition $partition}, then membound fleet"
echo "profiles: $out/nodes/<node>/   fleet summary: $out/fleet.txt (and fleet.json)   job log: $out/slurm-$job.out"
echo "follow it: squeue -j $job; tail -f $out/slurm-$job.out"
