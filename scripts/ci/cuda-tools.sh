#!/usr/bin/env bash
# Fetches what the GPU tests need on a machine without a GPU, from Debian's non-free component, without installing
# anything system-wide: ptxas (CUDA 11.8, nvidia-cuda-toolkit, 84 MB) to assemble every PTX kernel for sm_80 and
# sm_90, and the real driver library (libcuda1 + libnvidia-ptxjitcompiler1, 10 MB) whose cuInit(0) returns
# CUDA_ERROR_NO_DEVICE here. apt-get reads a private source list and keeps its lists and downloads under the cache
# directory; `dpkg -x` unpacks the packages there. A second run finds them and downloads nothing.
#
# Prints two lines for the caller to eval: MEMBOUND_PTXAS=... and MEMBOUND_LIBCUDA=...
# Usage: eval "$(scripts/ci/cuda-tools.sh)"
set -euo pipefail
cache=${MEMBOUND_CACHE:-$HOME/.cache/membound}/cuda
root=$cache/root
arch=$(dpkg --print-architecture 2>/dev/null || echo unknown)
ptxas=$root/usr/bin/ptxas
libcuda=$(ls "$root"/usr/lib/*-linux-gnu/nvidia/current/libcuda.so.1 2>/dev/null | head -1 || true)

if [ ! -x "$ptxas" ] || [ -z "$libcuda" ]; then
  if ! command -v apt-get >/dev/null || [ ! -f /etc/debian_version ]; then
    echo "cuda-tools: not a Debian system: ptxas and libcuda are not fetched (their tests skip)" >&2
    exit 0
  fi
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial" "$cache/debs" "$root"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $codename non-free" \
    > "$cache/apt/sources.list"
  apt_options=(-o "Dir::Etc::SourceList=$cache/apt/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
    -o "Dir::State::Lists=$cache/apt/lists" -o "Dir::Cache=$cache/apt" -o "Debug::NoLocking=1")
  [ "$(id -u)" = 0 ] && apt_options+=(-o "APT::Sandbox::User=root")
  echo "cuda-tools: fetching nvidia-cuda-toolkit, libcuda1, libnvidia-ptxjitcompiler1 ($arch) into $cache" >&2
  apt-get "${apt_options[@]}" -qq update >&2
  (cd "$cache/debs" && apt-get "${apt_options[@]}" -qq download nvidia-cuda-toolkit libcuda1 \
    libnvidia-ptxjitcompiler1 >&2)
  # Of the toolkit only ptxas (a static binary); the driver packages whole.
  dpkg-deb --fsys-tarfile "$cache"/debs/nvidia-cuda-toolkit_*.deb | tar -x -C "$root" ./usr/bin/ptxas
  for deb in "$cache"/debs/libcuda1_*.deb "$cache"/debs/libnvidia-ptxjitcompiler1_*.deb; do
    dpkg -x "$deb" "$root"
  done
  libcuda=$(ls "$root"/usr/lib/*-linux-gnu/nvidia/current/libcuda.so.1 | head -1)
fi
"$ptxas" --version >/dev/null
echo "MEMBOUND_PTXAS=$ptxas"
echo "MEMBOUND_LIBCUDA=$libcuda"
