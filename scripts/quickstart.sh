#!/usr/bin/env bash
# The README's first command: set up, build, and run the default experiment to tables and figures (run
# draws them with Debian's python3).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/sparsesvm run configs/quickstart.yaml -j "$(nproc)"
echo
for table in accuracy n_features lambda; do
  echo "results/quickstart/table_$table.csv:"
  cat "results/quickstart/table_$table.csv"
done
echo
echo "figures: results/quickstart/index.html (error, support vectors, validation curve)"
