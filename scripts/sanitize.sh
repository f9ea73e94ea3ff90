#!/usr/bin/env bash
# The sanitizer job of CI (after scripts/test.sh): builds everything with clang, AddressSanitizer and
# UBSan (errors abort) plus libFuzzer instrumentation into build-san/, runs the whole test suite there
# (the malformed-input corpus included), then a short smoke run of each fuzz harness.
# Usage: scripts/sanitize.sh [SECONDS_PER_HARNESS]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
bash scripts/install_packages.sh clang-14 libclang-rt-14-dev
CC=clang-14 CXX=clang++-14 cmake -S . -B build-san -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_BUILD_TESTS=ON \
  -DSPARSESVM_BUILD_FUZZ=ON -DSPARSESVM_BUILD_PYTHON=OFF -DSPARSESVM_WARNINGS_AS_ERRORS=OFF >/dev/null
cmake --build build-san -j "$(nproc)"
ctest --test-dir build-san --output-on-failure -j "$(nproc)"
bash tests/fuzz/run_fuzz.sh "$seconds" build-san
