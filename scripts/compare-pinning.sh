#!/usr/bin/env bash
# Pinned against unpinned, interleaved: DRAM Triad on every cpu, N pairs of runs (unpinned, pinned, unpinned,
# ...), each one JMH fork; prints per run the median bandwidth and the coefficient of variation of its pass
# times, then per arm the median of those. Says how loaded the machine was, since on a shared machine that
# decides the answer.
#
#   scripts/compare-pinning.sh [PAIRS (default 5)] [extra JMH options, e.g. -p workingSet=64MiB]
#
# Needs: the README's build (benchmarks/target/benchmarks.jar), taskset, python3.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar="$here/benchmarks/target/benchmarks.jar"
[ -f "$jar" ] || { echo "compare-pinning: $jar is missing; build it first (mvn -B -q package -DskipTests)" >&2; exit 2; }
pairs=${1:-5}
shift || true
case "$pairs" in ''|*[!0-9]*) echo "compare-pinning: PAIRS must be a whole number: PAIRS=$pairs" >&2; exit 2 ;; esac
java_cmd=${JAVA_HOME:+$JAVA_HOME/bin/}java
out=$(mktemp -d "${TMPDIR:-/tmp}/membound-pinning.XXXXXX")
echo "compare-pinning: $pairs pairs, results in $out; load before: $(uptime | sed 's/.*load average: //')"
for i in $(seq 1 "$pairs"); do
  for arm in unpinned pinned; do
    pin=false; [ "$arm" = pinned ] && pin=true
    uptime | sed 's/.*load average: //' > "$out/$arm-$i.load"
    "$java_cmd" -Dmembound.pin=$pin -Dmembound.repositoryRoot="$out" -cp "$jar" membound.benchmarks.BenchmarkMain \
      Triad -p threads=all -p workingSet=DRAM -wi 1 -i 5 -f 1 -rff "$out/$arm-$i.json" "$@" > "$out/$arm-$i.log" 2>&1 \
      || { echo "compare-pinning: run $arm $i failed, see $out/$arm-$i.log" >&2; exit 1; }
    echo "  $arm $i done (load $(cat "$out/$arm-$i.load"))"
  done
done
python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
rows = {}
for path in sorted(glob.glob(os.path.join(out, "*-*.json"))):
    arm, run = os.path.basename(path)[:-5].split("-")
    result = json.load(open(path))[0]
    params = result["params"]
    threads = int(params["threads"])
    array_bytes = int(params["workingSet"].split(":")[1])
    stream_bytes = 3 * array_bytes  # Triad reads two arrays and writes one (STREAM's convention)
    # SampleTime keeps every pass time (us) as a histogram: [[value, count], ...] per iteration.
    times = []
    for iteration in result["primaryMetric"]["rawDataHistogram"][0]:
        for value, count in iteration:
            times += [value] * int(count)
    rates = [stream_bytes / (t * 1e-6) / 1e9 for t in times]
    cv = statistics.pstdev(times) / statistics.mean(times)
    rows.setdefault(arm, []).append((int(run), statistics.median(rates), cv, len(times)))
print("run  arm       median GB/s (STREAM bytes)   CV of pass times   passes")
for arm in ("unpinned", "pinned"):
    for run, median, cv, n in sorted(rows.get(arm, [])):
        print(f"{run:>3}  {arm:<9} {median:>12.1f}                {100 * cv:>6.1f}%          {n:>4}")
for arm in ("unpinned", "pinned"):
    r = rows.get(arm, [])
    if r:
        print(f"{arm:<9} median of run medians {statistics.median(x[1] for x in r):.1f} GB/s, "
              f"median CV {100 * statistics.median(x[2] for x in r):.1f}% over {len(r)} runs")
PY
echo "load after: $(uptime | sed 's/.*load average: //')"
