#!/usr/bin/env bash
# Builds what a GPU machine with no JDK and no network needs to run the whole GPU suite from this working tree:
# build/device/runtime, a jlink-ed Java runtime of the modules membound uses (from a JDK 25, for the machine this
# runs on: linux-x86_64 here), and build/device/membound.jar, the CLI built on that JDK (so it holds the GPU suite,
# which compiles only on JDK 22+). Carry build/device with the working tree and run scripts/device-run.sh there.
#
#   scripts/device-bundle.sh [--jdk JDK_HOME] [--no-build]
#
# --jdk defaults to the first /usr/lib/jvm/temurin-25*; --no-build takes cli/target/membound.jar as it is (it must
# come from a JDK 22+ build). It checks that the jar holds the GPU suite, that the runtime starts, and that the working
# tree plus the bundle stay under 64 MiB (the device tool's limit on what travels); exit 1 when a check fails.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jdk=
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --jdk) jdk=${2:?"device-bundle: --jdk needs a JDK directory"}; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "device-bundle: unknown option: $1 (known: --jdk JDK_HOME, --no-build)" >&2; exit 2 ;;
  esac
done
if [ -z "$jdk" ]; then
  jdk=$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1 || true)
fi
[ -n "$jdk" ] && [ -x "$jdk/bin/jlink" ] || { echo "device-bundle: no JDK with jlink: --jdk=$jdk" >&2; exit 2; }
feature=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${feature%%.*}" -ge 22 ] 2>/dev/null || { echo "device-bundle: the GPU suite needs JDK 22 or newer: $jdk is $feature" >&2; exit 2; }

# The modules membound's jar needs (jdeps on it gives java.base, java.logging, java.management, java.xml and
# jdk.incubator.vector); JMH's forks also need jdk.management and jdk.unsupported. `report` would need java.desktop
# (about 45 MB more): the bundle does not run it.
modules=java.base,java.logging,java.management,java.xml,jdk.incubator.vector,jdk.management,jdk.unsupported
limit_bytes=$((64 * 1024 * 1024))
out=$here/build/device

if [ "$build" = 1 ]; then
  echo "device-bundle: building with $jdk (mvn package -DskipTests, offline)"
  (cd "$here" && JAVA_HOME=$jdk mvn -B -q -ntp -o package -DskipTests)
fi
jar=$here/cli/target/membound.jar
[ -f "$jar" ] || { echo "device-bundle: $jar is missing: build it on JDK 22+ first" >&2; exit 1; }
"$jdk/bin/jar" tf "$jar" | grep -q '^membound/benchmarks/gpu/cuda/CudaGpuSuite.class$' || {
  echo "device-bundle: $jar has no GPU suite (membound/benchmarks/gpu/cuda/CudaGpuSuite.class): it was built on a JDK older than 22" >&2
  exit 1; }
"$jdk/bin/jar" tf "$jar" | grep -q '^META-INF/services/membound.benchmarks.gpu.GpuSuite$' || {
  echo "device-bundle: $jar does not list the GPU suite in META-INF/services/membound.benchmarks.gpu.GpuSuite (GpuSuites finds it there)" >&2
  exit 1; }

rm -rf "$out"
mkdir -p "$out"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=zip-9 \
  --output "$out/runtime"
# libjvm.so ships with its symbol table (5 MB): the JVM needs only the dynamic symbols, as distributions' stripped
# runtimes show, and the bundle needs the room.
if command -v strip >/dev/null; then
  strip --strip-unneeded "$out/runtime/lib/server/libjvm.so"
fi
cp "$jar" "$out/membound.jar"
"$out/runtime/bin/java" -version 2>&1 | head -1 | sed 's/^/device-bundle: runtime: /'

bundle_bytes=$(du -sb "$out" | cut -f1)
tree_bytes=$(cd "$here" && { git ls-files -z; git ls-files -z --others --exclude-standard; } | xargs -0 -r du -cb 2>/dev/null | awk 'END {print $1}')
total=$((bundle_bytes + tree_bytes))
printf 'device-bundle: %s: runtime %d MiB + jar %d MiB; working tree %d MiB; together %.1f MiB of %d MiB\n' \
  "$out" $(( $(du -sb "$out/runtime" | cut -f1) / 1048576 )) $(( $(du -sb "$out/membound.jar" | cut -f1) / 1048576 )) \
  $((tree_bytes / 1048576)) "$(echo "$total / 1048576" | bc -l)" $((limit_bytes / 1048576))
if [ "$total" -ge "$limit_bytes" ]; then
  echo "device-bundle: over the 64 MiB that travel to the device machine" >&2
  exit 1
fi
echo "device-bundle: carry build/device; on the device machine run: scripts/device-run.sh"
