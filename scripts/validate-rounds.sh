#!/usr/bin/env bash
# Repeated calibrate-then-validate rounds and their medians: on a shared machine one run swings by more
# than the model's error, so the figures worth quoting are medians over rounds run back to back on a
# quiet machine.
#
# usage: scripts/validate-rounds.sh [ROUNDS] [START_LOAD] [MAX_LOAD]
#   ROUNDS      rounds to record (default 3)
#   START_LOAD  before each round, wait until the one-minute load average is below this (default 0.5)
#   MAX_LOAD    after calibrating, validate only if the load is still below this (default 1.0); otherwise
#               the round starts over (calibrate and validate stay back to back)
# WAIT_SECONDS (default 3600) bounds the whole wait; VALIDATE_OPTS passes options to validate.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-3}
start_load=${2:-0.5}
max_load=${3:-1.0}
deadline=$(( $(date +%s) + ${WAIT_SECONDS:-3600} ))
membound="$here/scripts/membound"
recorded=()

load() { cut -d' ' -f1 /proc/loadavg; }
below() { awk -v l="$(load)" -v m="$1" 'BEGIN { exit !(l < m) }'; }

while [ "${#recorded[@]}" -lt "$rounds" ]; do
  until below "$start_load"; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "gave up waiting for a load below $start_load: $(uptime)" >&2
      break 2
    fi
    sleep 10
  done
  echo "== round $(( ${#recorded[@]} + 1 )) of $rounds: calibrate at $(uptime)"
  "$membound" calibrate --standard | tail -n 4
  if ! below "$max_load"; then
    echo "== load $(load) after calibrating: starting the round over"
    continue
  fi
  echo "== validate at $(uptime)"
  out=$("$membound" validate ${VALIDATE_OPTS:-})
  echo "$out"
  recorded+=("$(printf '%s\n' "$out" | sed -n 's/^recorded: //p')")
  echo "== round done at $(uptime)"
done
if [ "${#recorded[@]}" -gt 0 ]; then
  echo
  "$membound" validate --summary "${recorded[@]}"
fi
