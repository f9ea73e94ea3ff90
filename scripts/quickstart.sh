#!/usr/bin/env bash
# The README's first command: set up, build, and run the default experiment to tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/sparsesvm run configs/quickstart.yaml -j "$(nproc)"
echo
for table in accuracy n_features; do
  echo "results/quickstart/table_$table.csv:"
  cat "results/quickstart/table_$table.csv"
done
