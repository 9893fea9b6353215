#!/usr/bin/env bash
# Fetches what the GPU tests need on a machine without a GPU, from Debian's non-free component (CUDA 11.8), without
# installing anything system-wide:
#   - ptxas (from nvidia-cuda-toolkit, 84 MB) to assemble every PTX kernel for sm_80 and sm_90;
#   - the real driver library (libcuda1 + libnvidia-ptxjitcompiler1, 10 MB), whose cuInit(0) returns
#     CUDA_ERROR_NO_DEVICE here;
#   - the real cuBLASLt (libcublaslt11, 206 MB), whose descriptors, layouts and preferences work without a device;
#   - cuBLASLt's headers (cublasLt.h, cublas_api.h and library_types.h, taken out of nvidia-cuda-dev, 774 MB,
#     which is deleted again once they are out).
# apt-get reads a private source list and keeps its lists and downloads under the cache directory; `dpkg -x` unpacks
# the packages there. A second run finds what the first unpacked and downloads nothing.
#
# Prints lines for the caller to eval: MEMBOUND_PTXAS, MEMBOUND_LIBCUDA, MEMBOUND_LIBCUBLASLT and
# MEMBOUND_CUBLASLT_INCLUDE.
# Usage: eval "$(scripts/ci/cuda-tools.sh)"
set -euo pipefail
cache=${MEMBOUND_CACHE:-$HOME/.cache/membound}/cuda
root=$cache/root
arch=$(dpkg --print-architecture 2>/dev/null || echo unknown)
ptxas=$root/usr/bin/ptxas
include=$root/usr/include
headers=(cublasLt.h cublas_api.h library_types.h)
find_libcuda() { ls "$root"/usr/lib/*-linux-gnu/nvidia/current/libcuda.so.1 2>/dev/null | head -1 || true; }
find_libcublaslt() { ls "$root"/usr/lib/*-linux-gnu/libcublasLt.so.11 2>/dev/null | head -1 || true; }
have_headers() { for h in "${headers[@]}"; do [ -f "$include/$h" ] || return 1; done; }
libcuda=$(find_libcuda)
libcublaslt=$(find_libcublaslt)

if [ ! -x "$ptxas" ] || [ -z "$libcuda" ] || [ -z "$libcublaslt" ] || ! have_headers; then
  if ! command -v apt-get >/dev/null || [ ! -f /etc/debian_version ]; then
    echo "cuda-tools: not a Debian system: ptxas, libcuda and cuBLASLt are not fetched (their tests skip)" >&2
    exit 0
  fi
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial" "$cache/debs" "$root"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $codename non-free" \
    > "$cache/apt/sources.list"
  apt_options=(-o "Dir::Etc::SourceList=$cache/apt/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
    -o "Dir::State::Lists=$cache/apt/lists" -o "Dir::Cache=$cache/apt" -o "Debug::NoLocking=1")
  [ "$(id -u)" = 0 ] && apt_options+=(-o "APT::Sandbox::User=root")
  apt-get "${apt_options[@]}" -qq update >&2
  fetch() { echo "cuda-tools: fetching $* ($arch) into $cache" >&2; (cd "$cache/debs" && apt-get "${apt_options[@]}" -qq download "$@" >&2); }
  if [ ! -x "$ptxas" ] || [ -z "$libcuda" ]; then
    fetch nvidia-cuda-toolkit libcuda1 libnvidia-ptxjitcompiler1
    # Of the toolkit only ptxas (a static binary); the driver packages whole.
    dpkg-deb --fsys-tarfile "$cache"/debs/nvidia-cuda-toolkit_*.deb | tar -x -C "$root" ./usr/bin/ptxas
    for deb in "$cache"/debs/libcuda1_*.deb "$cache"/debs/libnvidia-ptxjitcompiler1_*.deb; do
      dpkg -x "$deb" "$root"
    done
    libcuda=$(find_libcuda)
  fi
  if [ -z "$libcublaslt" ]; then
    fetch libcublaslt11
    dpkg -x "$cache"/debs/libcublaslt11_*.deb "$root"
    rm -f "$cache"/debs/libcublaslt11_*.deb
    libcublaslt=$(find_libcublaslt)
  fi
  if ! have_headers; then
    fetch nvidia-cuda-dev
    dpkg-deb --fsys-tarfile "$cache"/debs/nvidia-cuda-dev_*.deb | tar -x -C "$root" "${headers[@]/#/./usr/include/}"
    rm -f "$cache"/debs/nvidia-cuda-dev_*.deb
  fi
fi
"$ptxas" --version >/dev/null
echo "MEMBOUND_PTXAS=$ptxas"
echo "MEMBOUND_LIBCUDA=$libcuda"
echo "MEMBOUND_LIBCUBLASLT=$libcublaslt"
echo "MEMBOUND_CUBLASLT_INCLUDE=$include"
