#!/usr/bin/env bash
# ADMM against OneNormSVM-mean (l1) and DCA (LSP, SCAD, MCP, capped-l1) on the same objectives
# (bench/admm_bench.cpp) at lambda 2^-6 and 1e-4: the shipped two-class UCI sets raw and standardized
# (breast_cancer without its rows with missing values), pima with a class of 3, golub (72 x 3051), generated d >> n
# (200 x 5000) and n >> d (10^5 x 50; dca_gaussians has 10 informative features). Rows in bench/admm_results.csv, the goals' summary in
# bench/admm_results.txt (bench/admm_summary.py).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_BUILD_BENCH=ON -DSPARSESVM_BUILD_TESTS=OFF -DSPARSESVM_BUILD_PYTHON=OFF >/dev/null
cmake --build build-bench -j "$(nproc)" --target admm_bench
uci=()
for name in heart_scale.libsvm pima.csv ionosphere.csv sonar.csv wdbc.csv german.csv wpbc24.csv wpbc60.csv \
  breast_cancer.csv@missing=drop_row pima_rare3.csv; do
  uci+=("datasets/$name" "datasets/$name:standardize")
done
./build-bench/bench/admm_bench "${uci[@]}" datasets/golub.csv datasets/golub.csv:standardize \
  "gen:dca_gaussians:n=200,noise_dims=4990,seed=1" "gen:dca_gaussians:n=100000,noise_dims=40,seed=1" \
  | tee bench/admm_results.csv
/usr/bin/python3 bench/admm_summary.py bench/admm_results.csv | tee bench/admm_results.txt
