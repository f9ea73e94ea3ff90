#!/usr/bin/env bash
# The l2 SVM portfolio against liblinear -s 3 and Clp's barrier QP (bench/qp_bench.cpp), on the UCI sets
# raw and standardized and on generated sets; writes bench/qp_results.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_packages.sh liblinear-dev
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_BUILD_BENCH=ON -DSPARSESVM_BUILD_TESTS=OFF -DSPARSESVM_BUILD_PYTHON=OFF >/dev/null
cmake --build build-bench -j "$(nproc)" --target qp_bench
./build-bench/bench/qp_bench datasets/pima.csv datasets/wdbc.csv datasets/german.csv datasets/sonar.csv \
  datasets/ionosphere.csv datasets/golub.csv | tee bench/qp_results.txt
