#!/usr/bin/env bash
# Repeated calibrate-then-validate rounds and their medians: on a shared machine one run swings by more
# than the model's error, so the figures worth quoting are medians over rounds run back to back.
#
# usage: scripts/validate-rounds.sh [ROUNDS] [MAX_LOAD]
#   ROUNDS    rounds of 'membound calibrate --standard' then 'membound validate' (default 3)
#   MAX_LOAD  before each round, wait (up to WAIT_SECONDS, default 1800) until the one-minute load
#             average is below this (default 1.0); the load is printed with every round either way
# Extra options for validate go in VALIDATE_OPTS (e.g. VALIDATE_OPTS=--breakdown).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-3}
max_load=${2:-1.0}
wait_seconds=${WAIT_SECONDS:-1800}
membound="$here/scripts/membound"
recorded=()

load() { cut -d' ' -f1 /proc/loadavg; }

for round in $(seq 1 "$rounds"); do
  waited=0
  while awk -v l="$(load)" -v m="$max_load" 'BEGIN { exit !(l >= m) }' && [ "$waited" -lt "$wait_seconds" ]; do
    sleep 15
    waited=$((waited + 15))
  done
  echo "== round $round of $rounds: $(uptime)"
  "$membound" calibrate --standard | tail -n 4
  out=$("$membound" validate ${VALIDATE_OPTS:-})
  echo "$out"
  recorded+=("$(printf '%s\n' "$out" | sed -n 's/^recorded: //p')")
  echo "== round $round done: $(uptime)"
done
echo
"$membound" validate --summary "${recorded[@]}"
