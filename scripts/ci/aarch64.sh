#!/usr/bin/env bash
# CI, aarch64 under emulation: the kernels' correctness tests, host detection and a smoke calibration on
# Debian's arm64 OpenJDK 17, run by Debian's qemu-user-static with 128-bit SVE vectors, as on a DGX Spark.
# Classes come from the x86 build that ran before (bytecode is portable): run after `mvn verify`.
#
# Where the machine cannot do it (no root, apt refused, no qemu), it prints one SKIPPED line and exits 0, so
# the rest of CI is unaffected. A test or calibration that fails under emulation fails CI.
#
# Environment: MEMBOUND_AARCH64_CACHE (default /var/cache/membound/aarch64) keeps the arm64 JDK between runs.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
started=$(date +%s)
say() { printf '\n== aarch64: %s (%ss)\n' "$*" "$(( $(date +%s) - started ))"; }
skip() { echo "aarch64: SKIPPED: $*"; exit 0; }

# The emulated cpu: qemu's "max" with every SVE vector length above 128 bits turned off. qemu 7.2 would
# otherwise give processes 512-bit SVE, and the Vector API would pick 512-bit species a Spark never has.
qemu_cpu=${MEMBOUND_AARCH64_CPU:-max,sve128=on}
jdk_package=openjdk-17-jre-headless
# What the JRE needs to start under qemu -L: the C and C++ runtimes and zlib (the JRE's AWT and sound
# libraries, unused here, are not resolved).
packages=("$jdk_package" libc6 libgcc-s1 libstdc++6 zlib1g)

case "$(uname -m)" in
  x86_64) ;;
  aarch64) skip "this machine is aarch64: the JDK runs above already ran natively on it" ;;
  *) skip "no qemu route from $(uname -m) to aarch64 is set up here" ;;
esac
[ -d cli/target ] && [ -f cli/target/membound.jar ] || skip "cli/target/membound.jar is missing: run mvn verify first"

apt_ok() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && command -v dpkg >/dev/null; }

# 1. qemu-user-static, from Debian.
if ! command -v qemu-aarch64-static >/dev/null; then
  apt_ok || skip "qemu-user-static is not installed and apt-get needs root here"
  say "installing qemu-user-static"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static >/tmp/membound-aarch64-apt.log 2>&1 \
    || { apt-get update -qq >>/tmp/membound-aarch64-apt.log 2>&1 \
         && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static >>/tmp/membound-aarch64-apt.log 2>&1; } \
    || skip "apt-get could not install qemu-user-static: $(tail -1 /tmp/membound-aarch64-apt.log)"
fi
qemu=$(command -v qemu-aarch64-static)

# 2. Debian's arm64 OpenJDK, unpacked into a private root. Installing it with apt (multiarch) would also move the
#    machine's own amd64 openjdk-17 to the same version (the packages are Multi-Arch: same) and upgrade shared
#    libraries under other users' builds; unpacked, it changes nothing but apt's list of architectures.
if ! apt-cache show "$jdk_package:arm64" >/dev/null 2>&1; then
  apt_ok || skip "Debian's arm64 packages are not known to apt and adding them needs root"
  say "adding arm64 to apt's architectures"
  { dpkg --add-architecture arm64 && apt-get update -qq; } >/tmp/membound-aarch64-apt.log 2>&1 \
    || skip "apt-get update with arm64 failed: $(tail -1 /tmp/membound-aarch64-apt.log)"
  apt-cache show "$jdk_package:arm64" >/dev/null 2>&1 || skip "apt knows no $jdk_package:arm64"
fi
jdk_version=$(apt-cache policy "$jdk_package:arm64" | awk '/Candidate:/ {print $2}')
[ -n "$jdk_version" ] && [ "$jdk_version" != "(none)" ] || skip "apt has no candidate for $jdk_package:arm64"
cache=${MEMBOUND_AARCH64_CACHE:-/var/cache/membound/aarch64}
root="$cache/root-${jdk_version//[^A-Za-z0-9.+-]/_}"
java_home="$root/usr/lib/jvm/java-17-openjdk-arm64"
if [ ! -x "$java_home/bin/java" ]; then
  say "unpacking $jdk_package:arm64 $jdk_version into $root"
  mkdir -p "$cache" || skip "cannot create $cache"
  download=$(mktemp -d "$cache/download.XXXXXX")
  (cd "$download" && apt-get download "${packages[@]/%/:arm64}") >/tmp/membound-aarch64-apt.log 2>&1 \
    || { rm -rf "$download"; skip "apt-get download of the arm64 JDK failed: $(tail -1 /tmp/membound-aarch64-apt.log)"; }
  partial="$root.partial"
  rm -rf "$partial" && mkdir -p "$partial"
  for deb in "$download"/*.deb; do dpkg-deb -x "$deb" "$partial"; done
  rm -rf "$download"
  # The packages link some files absolutely (conf/ to /etc/java-17-openjdk, the loader to /lib): point those
  # links inside the root, or the host's own files would be read in their place.
  find "$partial" -type l -lname '/*' | while read -r link; do
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$partial$(readlink "$link")")" "$link"
  done
  mv "$partial" "$root"
fi

# 3. The arm64 java as a command that any x86 process can start: surefire's forked test JVM, and the JMH forks
#    of the smoke calibration (through --jvm). It lives in the JDK's bin/ so surefire finds the JDK's release
#    file beside it. FORK: the JDK's default way of starting processes execs its arm64 jspawnhelper, which the
#    kernel cannot run without binfmt_misc; forking execs the target (taskset, this script) directly.
wrapper="$java_home/bin/java-qemu"
cat >"$wrapper" <<EOF
#!/bin/sh
exec "$qemu" -L "$root" -cpu "$qemu_cpu" "$java_home/bin/java" -Djdk.lang.Process.launchMechanism=FORK "\$@"
EOF
chmod +x "$wrapper"

say "arm64 JVM under $("$qemu" --version | head -1), -cpu $qemu_cpu"
"$wrapper" -version 2>&1 | sed 's/^/  /' || skip "the arm64 JDK does not start under qemu"
"$wrapper" -XX:+PrintFlagsFinal -version 2>/dev/null | awk '$2 == "UseSVE" || $2 == "MaxVectorSize" {print "  " $2 " = " $4}'

# 4. The kernels' correctness tests and host detection, on the emulated JVM, classes from the x86 build.
#    Excluded: tests tagged "fork", which start a JVM by its own path (an arm64 binary the kernel cannot exec
#    here); the smoke calibration below forks through the wrapper instead.
say "tests on aarch64: hardware (host detection), kernels, workloads, suite, gpu-suite, benchmarks (kernels, team, placement)"
mvn -B -ntp -pl hardware,kernels,workloads,suite,gpu-suite,benchmarks -am test -Djvm="$wrapper" -DexcludedGroups=fork \
  -Dmembound.expectVectorBits=128 -Dsurefire.printSummary=true 2>&1 | tee /tmp/membound-aarch64-tests.log \
  | grep -E 'Tests run:|Vector API on|FAIL|ERROR' | grep -v -- '-- in ' | head -40
status=${PIPESTATUS[0]}
[ "$status" = 0 ] || { echo "aarch64: FAILED: tests under emulation (log: /tmp/membound-aarch64-tests.log)"; exit 1; }

# 5. A smoke calibration: every benchmark once at tiny sizes, JMH forks on the emulated JVM.
say "calibrate --smoke on aarch64"
profiles=$(mktemp -d "${TMPDIR:-/tmp}/membound-aarch64-profiles.XXXXXX")
"$wrapper" --add-modules=jdk.incubator.vector -Dmembound.repositoryRoot="$repo" -jar cli/target/membound.jar \
  calibrate --smoke --jvm "$wrapper" --profiles-dir "$profiles" 2>&1 | grep -v '^WARNING: Using incubator modules'
status=${PIPESTATUS[0]}
[ "$status" = 0 ] || { echo "aarch64: FAILED: calibrate --smoke under emulation exited $status"; exit 1; }
grep -q '"architecture" *: *"aarch64"' "$profiles"/*.json \
  || { echo "aarch64: FAILED: the smoke profile does not say aarch64"; exit 1; }
rm -rf "$profiles"

say "passed in $(( $(date +%s) - started )) s"
