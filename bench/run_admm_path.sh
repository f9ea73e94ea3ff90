#!/usr/bin/env bash
# ADMM on a lambda path against each lambda alone (bench/admm_path.yaml: 5-fold CV over 7 lambdas, 3 splits of
# 7 data sets), one run at -j 1 so that the task seconds compare; the summary goes to bench/admm_path_results.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
sparsesvm=${SPARSESVM:-build/sparsesvm}
# A fresh directory: run would keep the tasks an earlier run left there, and their seconds with them.
rm -rf results/bench_admm_path
"$sparsesvm" run bench/admm_path.yaml -j 1 -q --no-figures --out results/bench_admm_path
/usr/bin/python3 bench/admm_path_summary.py results/bench_admm_path/results.csv | tee bench/admm_path_results.txt
