#!/usr/bin/env bash
# One node's part of the fleet calibration (calibrate-fleet.sbatch runs it with srun, one task per node):
# `membound calibrate --MODE` with its profile in OUT/nodes/<node>/ and its output in OUT/logs/<node>.log;
# one line to the job log when done.
set -uo pipefail

home='' mode='' out=''
while [ $# -gt 0 ]; do
  case $1 in
    --home) home=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "membound: unknown argument to calibrate-node.sh: $1" >&2; exit 2 ;;
  esac
done
node=${SLURMD_NODENAME:-$(hostname -s)}
dir="$out/nodes/$node"
log="$out/logs/$node.log"
mkdir -p "$dir" "$out/logs"
started=$(date +%s)
{
  echo "node $node: membound calibrate --$mode, $(nproc) of $(getconf _NPROCESSORS_ONLN) cpus usable," \
    "job ${SLURM_JOB_ID:-?} step ${SLURM_STEP_ID:-?}"
  "$home/scripts/membound" calibrate --"$mode" --profiles-dir "$dir"
} > "$log" 2>&1
status=$?
profile=$(ls "$dir"/*-*Z.json 2>/dev/null | tail -1)
echo "node $node: calibrate --$mode exited $status after $(( $(date +%s) - started )) s;" \
  "profile ${profile:-none}; log $log"
exit $status
