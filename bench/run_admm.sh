#!/usr/bin/env bash
# ADMM against DCA on the same objectives (bench/admm_bench.cpp); one row per data set and penalty.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_BUILD_BENCH=ON -DSPARSESVM_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j "$(nproc)" --target admm_bench
./build-bench/bench/admm_bench datasets/heart_scale.libsvm datasets/pima.csv datasets/ionosphere.csv datasets/sonar.csv \
  datasets/wdbc.csv datasets/german.csv "gen:sparse_categorical:n=8124,d=112,flip_fraction=0.02"
