#!/usr/bin/env bash
# Holds membound's Vector API kernels against the same kernels in C with OpenMP (scripts/reference) and
# against likwid-bench, at the DRAM working set, side by side: runs interleaved A B A B ..., and reports
# the median of the per-pair ratios, because these machines are shared and single runs swing by 15%+.
#
#   scripts/compare-peers.sh [--pairs 5] [--threads 2] [--kernels copy,...] [--pages 4k|huge]
#
# --pages puts all three on the same pages: 4k (default: Java with -Dmembound.hugePages=false, C's malloc
# and likwid as they are) or huge (Java's default transparent huge pages, C's malloc with
# GLIBC_TUNABLES=glibc.malloc.hugetlb=1; likwid only gets them when the kernel's THP mode is 'always').
#
# Needs: the README's build (benchmarks/target/benchmarks.jar), gcc with OpenMP, python3, and for the
# likwid column Debian's likwid (apt-get install likwid). Writes its raw outputs and a summary table
# under results/peers/<host>-<UTC>/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pairs=5
threads=$(nproc)
kernels=copy,bulkcopy,scale,add,triad,dot,nstream,sum,fill
pages=4k
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --kernels) kernels=$2; shift 2 ;;
    *) echo "compare-peers: unknown option $1 (known: --pairs N, --threads N, --kernels a,b, --pages 4k|huge)" >&2; exit 2 ;;
  esac
done
[[ "$pairs" =~ ^[1-9][0-9]*$ ]] || { echo "compare-peers: --pairs must be a positive whole number: --pairs=$pairs" >&2; exit 2; }
case "$pages" in
  4k) java_pages=-Dmembound.hugePages=false; c_env= ;;
  huge) java_pages=-Dmembound.hugePages=true; c_env=glibc.malloc.hugetlb=1 ;;
  *) echo "compare-peers: --pages must be 4k or huge: --pages=$pages" >&2; exit 2 ;;
esac
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)
jar="$here/benchmarks/target/benchmarks.jar"
[ -f "$jar" ] || { echo "compare-peers: $jar is missing; run the README's build first" >&2; exit 2; }
java_cmd=${JAVA_HOME:+$JAVA_HOME/bin/}java

out="$here/results/peers/$(hostname)-$(date -u +%Y%m%dT%H%M%SZ)-$pages"
mkdir -p "$out"
ref="$out/stream-omp"
gcc -O3 -march=native -fopenmp -fno-tree-loop-distribute-patterns "$here/scripts/reference/stream-omp.c" -o "$ref"
gcc -O3 -march=native -fopenmp -DUSE_LIBC=1 "$here/scripts/reference/stream-omp.c" -o "$ref-libc"

# The DRAM working set as the suite resolves it on this host (each array 4x the last-level cache).
dram=$("$java_cmd" $java_pages -Dmembound.dryRun=true -jar "$jar" StreamBenchmark -p threads="$threads" \
  | sed -n 's/.*workingSet=\(DRAM:[0-9]*\).*/\1/p' | head -1)
array_bytes=${dram#DRAM:}
elements=$(( array_bytes / 8 ))
echo "compare-peers: $threads threads, each array $array_bytes bytes ($elements doubles), $pairs pairs per kernel, pages $pages (kernel THP mode $thp), into $out"

likwid_test() { case "$1" in copy) echo copy_avx ;; triad) echo stream_avx_fma ;; sum) echo load_avx ;; *) echo "" ;; esac; }
arrays() { case "$1" in sum|fill) echo 1 ;; copy|scale|dot) echo 2 ;; *) echo 3 ;; esac; }

summary="$out/pairs.tsv"
printf 'kernel\tpair\tpeer\tjava_GBps\tpeer_GBps\tratio\n' > "$summary"
java_median() { # JMH JSON -> median STREAM GB/s of the passes
  python3 - "$1" "$2" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))[0]
bytes_per_pass = float(sys.argv[2])
unit = {"us/op": 1e-6, "ms/op": 1e-3, "ns/op": 1e-9, "s/op": 1.0}[result["primaryMetric"]["scoreUnit"]]
samples = []
for fork in result["primaryMetric"]["rawDataHistogram"]:
    for iteration in fork:
        for value, count in iteration:
            samples += [value] * int(count)
samples.sort()
print("%.2f" % (bytes_per_pass / (samples[len(samples) // 2] * unit) / 1e9))
PY
}
for kernel in ${kernels//,/ }; do
  moved=$(case "$kernel" in copy|bulkcopy|scale|dot) echo 2 ;; add|triad) echo 3 ;; nstream) echo 4 ;; *) echo 1 ;; esac)
  bytes_per_pass=$(( moved * elements * 8 ))
  upper=$(case "$kernel" in bulkcopy) echo BULK_COPY ;; *) echo "$kernel" | tr a-z A-Z ;; esac)
  c_kernel=${kernel/bulkcopy/copy}
  for pair in $(seq 1 "$pairs"); do
    json="$out/java-$kernel-$pair.json"
    "$java_cmd" $java_pages -jar "$jar" StreamBenchmark -p kernel="$upper" -p workingSet="$dram" -p threads="$threads" \
      -f 1 -wi 2 -i 5 -rff "$json" > "$out/java-$kernel-$pair.log" 2>&1
    java=$(java_median "$json" "$bytes_per_pass")
    c=$(GLIBC_TUNABLES=$c_env OMP_NUM_THREADS=$threads OMP_PROC_BIND=false "$ref" "$c_kernel" "$elements" 21 | tee -a "$out/c.log" \
      | sed -n 's/.*median_GBps=\([0-9.]*\).*/\1/p')
    printf '%s\t%s\tc\t%s\t%s\t%s\n' "$kernel" "$pair" "$java" "$c" "$(python3 -c "print('%.3f' % ($java / $c))")" >> "$summary"
    if [ "$c_kernel" = copy ]; then
      # stream.c's Copy as gcc builds it: the loop becomes a memcpy (non-temporal stores above glibc's threshold).
      memcpy=$(GLIBC_TUNABLES=$c_env OMP_NUM_THREADS=$threads OMP_PROC_BIND=false "$ref-libc" copy "$elements" 21 \
        | tee -a "$out/c-libc.log" | sed -n 's/.*median_GBps=\([0-9.]*\).*/\1/p')
      printf '%s\t%s\tmemcpy\t%s\t%s\t%s\n' "$kernel" "$pair" "$java" "$memcpy" "$(python3 -c "print('%.3f' % ($java / $memcpy))")" >> "$summary"
    fi
    test=$(likwid_test "$kernel")
    if [ -n "$test" ] && command -v likwid-bench >/dev/null && { [ "$pages" = 4k ] || [ "$thp" = always ]; }; then
      total_kb=$(( $(arrays "$kernel") * array_bytes / 1000 ))
      likwid=$(likwid-bench -t "$test" -w "N:${total_kb}kB:$threads" 2>&1 | tee -a "$out/likwid.log" \
        | sed -n 's/^MByte\/s:[[:space:]]*\([0-9.]*\).*/\1/p')
      likwid=$(python3 -c "print('%.2f' % ($likwid / 1000))")
      printf '%s\t%s\tlikwid\t%s\t%s\t%s\n' "$kernel" "$pair" "$java" "$likwid" "$(python3 -c "print('%.3f' % ($java / $likwid))")" >> "$summary"
    fi
    echo "  $kernel pair $pair: java $java GB/s, C $c GB/s${memcpy:+, memcpy $memcpy GB/s}${likwid:+, likwid $likwid GB/s}"
    likwid= memcpy=
  done
done
# memset (the libc Fill: non-temporal stores above a size threshold) next to the loop, once.
GLIBC_TUNABLES=$c_env OMP_NUM_THREADS=$threads "$ref-libc" fill "$elements" 21 >> "$out/c-libc.log"

python3 - "$summary" <<'PY' | tee "$out/summary.txt"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print("kernel   peer    pairs  java GB/s  peer GB/s  median java/peer  min   max")
for kernel in dict.fromkeys(r["kernel"] for r in rows):
    for peer in ("c", "memcpy", "likwid"):
        sel = [r for r in rows if r["kernel"] == kernel and r["peer"] == peer]
        if not sel:
            continue
        ratios = [float(r["ratio"]) for r in sel]
        print("%-8s %-7s %5d  %9.2f  %9.2f  %16.3f  %.3f %.3f" % (kernel, peer, len(sel),
              statistics.median(float(r["java_GBps"]) for r in sel), statistics.median(float(r["peer_GBps"]) for r in sel),
              statistics.median(ratios), min(ratios), max(ratios)))
PY
echo "libc runs (memcpy in the pairs above, memset once), STREAM GB/s:"; sed 's/^/  /' "$out/c-libc.log"
