#!/usr/bin/env bash
# Repeated calibrate-then-validate rounds and their medians: on a shared machine one run swings by more
# than the model's error, so the figures worth quoting are medians over rounds run back to back on a
# quiet machine.
#
# usage: scripts/validate-rounds.sh [ROUNDS] [START_LOAD] [MAX_LOAD]
#   ROUNDS      rounds to record (default 3)
#   START_LOAD  before each round, wait until the cpus busy over 5 seconds (from /proc/stat: every process,
#               since none of ours runs then) are below this many (default 0.25)
#   MAX_LOAD    after calibrating, validate only if they are still below this (default 0.5); otherwise the
#               round starts over (calibrate and validate stay back to back)
# The load average is not used: on a VM it can stay near 2 with every cpu idle.
# WAIT_SECONDS (default 3600) bounds the whole wait; VALIDATE_OPTS passes options to validate.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-3}
start_load=${2:-0.25}
max_load=${3:-0.5}
deadline=$(( $(date +%s) + ${WAIT_SECONDS:-3600} ))
membound="$here/scripts/membound"
recorded=()

# Counts a failed step, prints its last lines, and says whether to try the round again (three failures end it).
retry() {
  failures=$(( ${failures:-0} + 1 ))
  printf '%s\n' "$2" | grep '^membound:' >&2 || printf '%s\n' "$2" | tail -n 3 >&2
  [ "$failures" -lt 3 ] || { echo "validate-rounds: $1 failed $failures times; giving up" >&2; return 1; }
  echo "== $1 failed: starting the round over"
}

load() { # cpus busy over the next 5 seconds: (busy ticks) / (all ticks) x cpus, from two /proc/stat readings
  local a b
  a=$(awk '/^cpu / { print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9 }' /proc/stat)
  sleep 5
  b=$(awk '/^cpu / { print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9 }' /proc/stat)
  awk -v a="$a" -v b="$b" -v n="$(nproc)" 'BEGIN { split(a, x, " "); split(b, y, " ");
    t = y[2] - x[2]; printf "%.2f\n", (t > 0 ? (y[1] - x[1]) / t * n : 0) }'
}
below() { awk -v l="$(load)" -v m="$1" 'BEGIN { exit !(l < m) }'; }

while [ "${#recorded[@]}" -lt "$rounds" ]; do
  until below "$start_load"; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "gave up waiting for fewer than $start_load busy cpus: $(load) busy" >&2
      break 2
    fi
    sleep 5
  done
  echo "== round $(( ${#recorded[@]} + 1 )) of $rounds: calibrate at $(date -u +%H:%M:%S)"
  if ! calibrated=$("$membound" calibrate --standard --tenants 2 2>&1); then
    retry calibration "$calibrated" || break
    continue
  fi
  printf '%s\n' "$calibrated" | tail -n 4
  if ! below "$max_load"; then
    echo "== $(load) cpus busy after calibrating: starting the round over"
    continue
  fi
  echo "== validate at $(date -u +%H:%M:%S)"
  if ! out=$("$membound" validate ${VALIDATE_OPTS:-} 2>&1); then
    retry validation "$out" || break
    continue
  fi
  echo "$out"
  recorded+=("$(printf '%s\n' "$out" | sed -n 's/^recorded: //p')")
  echo "== round done at $(date -u +%H:%M:%S)"
done
if [ "${#recorded[@]}" -gt 0 ]; then
  echo
  "$membound" validate --summary "${recorded[@]}"
fi
