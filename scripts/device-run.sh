#!/usr/bin/env bash
# The whole GPU suite end to end on a GPU machine that has the NVIDIA driver but no JDK and no network, from the
# bundle scripts/device-bundle.sh built (build/device: a jlink-ed runtime and membound.jar) carried with the working
# tree: calibrate --gpu required (GPU suite, then the CPU suite) with its GPU table and the profile's path, the
# profile itself (show), then predict --profile <it> --model llama-3.1-8b --finetune lora on it; PyTorch's copy and
# BF16 matmul for comparison where torch has CUDA (scripts/gpu-check.sh).
#
#   scripts/device-run.sh [calibrate options, default --quick]
#
# Everything printed also goes to $OUT/device-run/device-run.log, and the profile (with its raw JMH results) to
# $OUT/device-run/profiles: $OUT is the device tool's folder that comes back (results/device without one).
# cuBLASLt is not part of the driver: MEMBOUND_LIBCUBLASLT names it, else the loader's, the CUDA toolkit's or
# PyTorch's nvidia-cublas wheel's is found here; without one the GEMMs are one line and the rest runs.
# Exit status: calibrate's (0; 2 when the GPU cannot be measured: no driver, no device, a CUDA error, all in one
# line), else 1 when show or predict fails on the profile, 124 when calibrate overran its time.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runtime=${MEMBOUND_RUNTIME:-$here/build/device/runtime}
export MEMBOUND_JAR=${MEMBOUND_JAR:-$here/build/device/membound.jar}
out=${OUT:-$here/results/device}/device-run
mkdir -p "$out/profiles"
log=$out/device-run.log
: > "$log"
say() { echo "device-run: $*" | tee -a "$log"; }
[ -x "$runtime/bin/java" ] || { say "no runtime at $runtime: run scripts/device-bundle.sh first and carry build/device"; exit 2; }
[ -f "$MEMBOUND_JAR" ] || { say "no $MEMBOUND_JAR: run scripts/device-bundle.sh first and carry build/device"; exit 2; }

find_cublaslt() {
  local dirs=() candidate
  while read -r candidate; do dirs+=("$(dirname "$candidate")"); done < <(ldconfig -p 2>/dev/null | awk '/libcublasLt\.so/ {print $NF}')
  dirs+=(/usr/local/cuda/lib64 /usr/local/cuda/targets/*/lib /usr/local/cuda-*/lib64 /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu)
  if command -v python3 >/dev/null; then
    while read -r candidate; do dirs+=("$candidate"); done < <(python3 - 2>/dev/null <<'PY'
import importlib, os
for name in ("nvidia.cublas", "nvidia.cu13", "nvidia.cu12", "torch"):
    try:
        module = importlib.import_module(name)
    except Exception:
        continue
    for path in getattr(module, "__path__", []):
        print(os.path.join(path, "lib"))
PY
)
  fi
  for candidate in "${dirs[@]}"; do
    for lib in "$candidate"/libcublasLt.so.[0-9]*; do
      [ -f "$lib" ] && { echo "$lib"; return 0; }
    done
  done
  # Last: anywhere under the usual roots (a conda environment, a virtualenv), for at most 30 s.
  timeout 30 find /usr /opt /root /home -name 'libcublasLt.so.[0-9]*' -type f 2>/dev/null | head -1 | grep . && return 0
  return 1
}
if [ -z "${MEMBOUND_LIBCUBLASLT:-}" ]; then
  MEMBOUND_LIBCUBLASLT=$(find_cublaslt || true)
fi
export MEMBOUND_LIBCUBLASLT
say "$(date -u +%FT%TZ) on $(hostname); runtime $("$runtime/bin/java" -version 2>&1 | head -1); cuBLASLt ${MEMBOUND_LIBCUBLASLT:-not found}"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 | tee -a "$log"

[ $# -gt 0 ] || set -- --quick
started=$(date +%s)
MEMBOUND_GPU_CHECK_DIR=$out/profiles timeout "${MEMBOUND_CALIBRATE_SECONDS:-420}" \
  "$here/scripts/gpu-check.sh" --java "$runtime" "$@" 2>&1 | tee -a "$log"
status=${PIPESTATUS[0]}
say "calibrate and the comparison took $(( $(date +%s) - started )) s, exit $status"
[ "$status" = 0 ] || exit "$status"

profile=$(ls -t "$out"/profiles/*.json 2>/dev/null | grep -v -- '-jmh' | head -1)
[ -n "$profile" ] || { say "calibrate exited 0 but wrote no profile under $out/profiles"; exit 1; }
say "profile: $profile"
export JAVA_HOME=$runtime
"$here/scripts/membound" show "$profile" 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || { say "show failed on $profile"; exit 1; }
"$here/scripts/membound" predict --profile "$profile" --model llama-3.1-8b --finetune lora 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || { say "predict failed on $profile"; exit 1; }
"$here/scripts/membound" predict --profile "$profile" --model llama-3.1-8b --finetune lora --format json \
  > "$out/predict-llama-3.1-8b-lora.json" 2>>"$log" || { say "predict --format json failed"; exit 1; }
say "done in $(( $(date +%s) - started )) s: $out"
