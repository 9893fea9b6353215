#!/usr/bin/env bash
# The whole GPU suite end to end on an NVIDIA machine: `membound calibrate --gpu required` (the GPU suite through
# the CUDA driver, then the CPU suite), its table and the profile's path; then, where PyTorch is installed, the same
# device's copy rate and BF16 matmul from PyTorch for comparison (same byte convention as STREAM's Copy: bytes read
# plus bytes written).
#
#   scripts/gpu-check.sh [--java JAVA_OR_RUNTIME] [calibrate options, default --quick]
#
# JAVA_OR_RUNTIME is a java executable or a Java runtime directory (bin/java inside): a JDK 22 or newer, or a
# jlink-ed runtime carried to a machine that has none, made on a JDK 25 with (49 MB; calibrate, JMH's forks included,
# runs on it; `membound report` would also need java.desktop)
#   jlink --add-modules java.base,java.logging,java.management,java.xml,jdk.incubator.vector,jdk.management,jdk.unsupported --strip-debug --no-header-files --no-man-pages --compress=zip-6 --output runtime
# Without --java it uses $JAVA_HOME, else the java on the PATH. Needs the README's build (cli/target/membound.jar,
# built on JDK 22+ so that it holds the GPU suite). Exit status: calibrate's (2 when no GPU can be measured).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
java_given=
if [ "${1:-}" = "--java" ]; then
  java_given=${2:?"gpu-check: --java needs a java executable or a runtime directory"}
  shift 2
fi
if [ -n "$java_given" ]; then
  if [ -d "$java_given" ]; then
    export JAVA_HOME=$java_given
  elif [ -x "$java_given" ]; then
    export JAVA_HOME=$(cd "$(dirname "$java_given")/.." && pwd)
  else
    echo "gpu-check: --java must be a java executable or a runtime directory: --java=$java_given" >&2
    exit 2
  fi
fi
java_cmd=${JAVA_HOME:+$JAVA_HOME/bin/}java
[ -x "$(command -v "$java_cmd")" ] || { echo "gpu-check: no java at $java_cmd (give --java)" >&2; exit 2; }
feature=$("$java_cmd" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${feature%%.*}" -ge 22 ] 2>/dev/null || {
  echo "gpu-check: the GPU suite needs JDK 22 or newer: $java_cmd is $feature" >&2; exit 2; }
[ $# -gt 0 ] || set -- --quick
out=${MEMBOUND_GPU_CHECK_DIR:-$here/results/profiles}
echo "gpu-check: $("$java_cmd" -version 2>&1 | head -1); profiles in $out"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
status=0
"$here/scripts/membound" calibrate --gpu required --profiles-dir "$out" --jvm "$(command -v "$java_cmd")" "$@" || status=$?

if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  echo "gpu-check: PyTorch on the same device, for comparison (median of 20 after 5 warm-up)"
  python3 - <<'PY'
import statistics, torch
def timed(fn, n=20, warmup=5):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(n):
        start.record(); fn(); end.record(); torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return statistics.median(times)
src = torch.empty(1 << 28, dtype=torch.float32, device="cuda").fill_(1.0)  # 1 GiB
dst = torch.empty_like(src)
seconds = timed(lambda: dst.copy_(src))
print(f"  torch copy_ 1 GiB fp32: {2 * src.numel() * 4 / seconds / 1e9:.1f} GB/s (read + write, STREAM Copy's convention)")
n = 8192
a = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
b = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
seconds = timed(lambda: torch.matmul(a, b))
print(f"  torch.matmul bf16 {n}^3: {2 * n ** 3 / seconds / 1e12:.1f} TFLOP/s")
PY
else
  echo "gpu-check: no PyTorch with CUDA here: no comparison"
fi
exit "$status"
