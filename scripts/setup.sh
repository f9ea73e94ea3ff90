#!/usr/bin/env bash
# Installs what is missing from Debian's packages (as root, or through sudo), then configures and builds
# sparsesvm in build/ (Release). Usage: scripts/setup.sh [--strict]   (--strict: warnings are errors)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make pkg-config coinor-libclp-dev coinor-libcbc-dev libeigen3-dev libyaml-cpp-dev
          libfmt-dev libspdlog-dev catch2 libcli11-dev python3 python3-matplotlib)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  as_root=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || { echo "setup: run as root or install: ${missing[*]}" >&2; exit 1; }
    as_root=(sudo)
  fi
  "${as_root[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

strict=OFF
[[ "${1:-}" == "--strict" ]] && strict=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_WARNINGS_AS_ERRORS="$strict" -DSPARSESVM_BUILD_TESTS=ON >/dev/null
cmake --build build -j "$(nproc)"
