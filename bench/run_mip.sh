#!/usr/bin/env bash
# psi-learning MIPs ([PSI] 3), time to a proven 1e-4 gap: PSI-1 and PSI-2 on the paper's simulation
# (psi_quadratic, 5% flipped labels; case 1: 2 features, case 3: 8) at n = 50, 100, 200, and the
# restricted PSI-1r and PSI-2r at n = 100; C = 1, 30 s per fit. With BEFORE=<an older sparsesvm binary>
# each fit runs with both binaries, interleaved (same machine, same load); one CSV row per fit in
# bench/mip_results.csv and the summary table in bench/mip_results.txt.
# Usage: [BEFORE=/path/to/old/sparsesvm] bench/run_mip.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/before_after.sh
limit=${TIME_LIMIT:-30}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=bench/mip_results.csv
echo "binary,method,n,case,seed,status,objective,relative_gap,nodes,seconds" >"$out"
run() {  # method n case seed
  for entry in "${binaries[@]}"; do
    local label=${entry%%=*} binary=${entry#*=}
    rm -f "$scratch/row.csv"
    "$binary" fit -g "psi_quadratic:n=$2,case=$3,seed=$4" -m "$1" --C 1 --time_limit "$limit" \
      --relative_gap 1e-4 --out "$scratch/row.csv" >/dev/null 2>&1 || true
    /usr/bin/python3 - "$scratch/row.csv" "$label,$1,$2,$3,$4" >>"$out" <<'PY'
import csv, sys
row = list(csv.DictReader(open(sys.argv[1])))[0]
print(",".join([sys.argv[2], row["status"], row["objective"], row["mip_relative_gap"], row["mip_nodes"], row["time_s"]]))
PY
  done
}
for seed in 1 2; do
  for n in 50 100 200; do
    for method in PSI-1 PSI-2; do
      run "$method" "$n" 1 "$seed"
      if ((n < 200)); then run "$method" "$n" 3 "$seed"; fi
    done
  done
  for method in PSI-1r PSI-2r; do run "$method" 100 1 "$seed"; done
done
/usr/bin/python3 bench/mip_summary.py "$out" "$limit" | tee bench/mip_results.txt
