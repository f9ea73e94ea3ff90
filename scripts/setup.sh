#!/usr/bin/env bash
# Installs what is missing from Debian's packages (as root, or through sudo), then configures and builds
# sparsesvm in build/ (Release). Usage: scripts/setup.sh [--strict]   (--strict: warnings are errors)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_packages.sh g++ cmake make pkg-config coinor-libclp-dev coinor-libcbc-dev libeigen3-dev \
  libyaml-cpp-dev libfmt-dev libspdlog-dev catch2 libcli11-dev python3 python3-matplotlib

strict=OFF
[[ "${1:-}" == "--strict" ]] && strict=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_WARNINGS_AS_ERRORS="$strict" -DSPARSESVM_BUILD_TESTS=ON >/dev/null
cmake --build build -j "$(nproc)"
