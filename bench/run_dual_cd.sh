#!/usr/bin/env bash
# Our dual CD against liblinear (in-process) and SMO, on generated sets and the exported UCI sets.
# Needs Debian's liblinear-dev (apt-get install liblinear-dev); prints one row per data set.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_BUILD_BENCH=ON -DSPARSESVM_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j "$(nproc)" --target dual_cd_bench
./build-bench/bench/dual_cd_bench datasets/sonar.csv datasets/ionosphere.csv datasets/pima.csv datasets/wdbc.csv
