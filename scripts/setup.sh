#!/usr/bin/env bash
# Installs what is missing from Debian's packages (as root, or through sudo), then configures and builds
# sparsesvm in build/ (Release). Usage: scripts/setup.sh [--strict]   (--strict: warnings are errors)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_packages.sh g++ cmake make pkg-config coinor-libclp-dev coinor-libcbc-dev libeigen3-dev \
  libyaml-cpp-dev libfmt-dev libspdlog-dev catch2 libcli11-dev python3 python3-matplotlib \
  python3-dev python3-pybind11 python3-numpy python3-scipy python3-sklearn python3-pandas python3-pytest \
  python3-venv python3-pip python3-setuptools python3-wheel curl dpkg-dev

strict=OFF
[[ "${1:-}" == "--strict" ]] && strict=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_WARNINGS_AS_ERRORS="$strict" -DSPARSESVM_BUILD_TESTS=ON >/dev/null
cmake --build build -j "$(nproc)"
