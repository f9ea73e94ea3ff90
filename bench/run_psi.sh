#!/usr/bin/env bash
# psi-learning at the paper's sizes (issue 38): PSI-1 and PSI-2 on psi_quadratic (5% flipped labels; cases
# 1-4: 2, 4, 8, 14 features) at n = 50, 100, 200, 400, seeds 1-3, C = 1, at the default work limits
# (lp_iteration_limit 2e5) with a 120 s wall-clock safety net. Each instance runs with `--search cbc` (Cbc's
# tree over the examples) and, where the default `search: auto` differs from it (at most 4 features), with
# `--search auto` (the box search over (w, b) first), one after the other, so both see the same load.
# One CSV row per fit in bench/psi_results.csv; the summary table in bench/psi_results.txt. With
# RESUME=1 the fits already in the CSV are kept and skipped (a run cut short, or rows deleted to redo).
# Usage: [RESUME=1] bench/run_psi.sh   (SPARSESVM=<binary> to use another build)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${SPARSESVM:-./build/sparsesvm}
limit=120
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=bench/psi_results.csv
if [[ "${RESUME:-}" != 1 || ! -s "$out" ]]; then
  echo "binary,method,n,case,seed,status,objective,relative_gap,nodes,seconds" >"$out"
fi
run() {  # search method n case seed
  if grep -q "^$1,$2,$3,$4,$5," "$out"; then return; fi
  rm -f "$scratch/row.csv"
  "$binary" fit -g "psi_quadratic:n=$3,case=$4,seed=$5" -m "$2" --C 1 --search "$1" --time_limit "$limit" \
    --relative_gap 1e-4 --out "$scratch/row.csv" >/dev/null 2>&1 || true
  /usr/bin/python3 - "$scratch/row.csv" "$1,$2,$3,$4,$5" >>"$out" <<'PY'
import csv, sys
row = list(csv.DictReader(open(sys.argv[1])))[0]
print(",".join([sys.argv[2], row["status"], row["objective"], row["mip_relative_gap"], row["mip_nodes"], row["time_s"]]))
PY
}
for n in 50 100 200 400; do
  for case in 1 2 3 4; do
    for seed in 1 2 3; do
      for method in PSI-1 PSI-2; do
        run cbc "$method" "$n" "$case" "$seed"
        if ((case <= 2)); then run auto "$method" "$n" "$case" "$seed"; fi
      done
    done
  done
done
/usr/bin/python3 bench/mip_summary.py "$out" "$limit" | tee bench/psi_results.txt
