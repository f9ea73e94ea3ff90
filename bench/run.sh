#!/usr/bin/env bash
# Builds and runs the solver benchmark on the generated set and the exported UCI sets.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_BUILD_BENCH=ON -DSPARSESVM_BUILD_TESTS=OFF -DSPARSESVM_BUILD_PYTHON=OFF >/dev/null
cmake --build build-bench -j "$(nproc)" --target solver_bench
./build-bench/bench/solver_bench datasets/sonar.csv datasets/ionosphere.csv datasets/pima.csv datasets/wdbc.csv
