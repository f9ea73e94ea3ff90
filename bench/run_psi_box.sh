#!/usr/bin/env bash
# psi's searches before and after a change (issue 38): PSI-1 and PSI-2 on psi_quadratic at n = 100 and 200,
# seeds 1-3, C = 1, at the default work limits with a 120 s wall-clock safety net, the options of
# bench/run_psi.sh. By default cases 1-2 (2 and 4 features) with `--search auto`, the box search first
# (bench/psi_box_results.*); with NAME=psi_tighten CASES="3 4" SEARCH=cbc, the cases Cbc's tree searches
# (8 and 14 features), for the big-M's tightening (bench/psi_tighten_results.*); NS=".." sets the sizes
# and EXTRA="--lp_iteration_limit 0" other fit options (psi_tighten_unlimited.*), LIMIT=<s> the
# wall-clock safety net (default 120 s), METHODS=".." the methods (default "PSI-1 PSI-2"). Each instance runs with the
# "before" binary (BEFORE=<path>) and the current build, one after the other, the order swapped from one
# instance to the next, so both see the same load. One CSV row per fit in bench/$NAME_results.csv; the
# summary table in bench/$NAME_results.txt.
# Usage: [BEFORE=<older sparsesvm>] [NAME=.. CASES=".." SEARCH=.. NS=".." EXTRA=".." LIMIT=.. METHODS=".."] bench/run_psi_box.sh
#        (SPARSESVM=<binary> for the "after" build)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/before_after.sh
limit=${LIMIT:-120}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
name=${NAME:-psi_box}
cases=(${CASES:-1 2})
search=${SEARCH:-auto}
sizes=(${NS:-100 200})
extra=(${EXTRA:-})
methods=(${METHODS:-PSI-1 PSI-2})
out=bench/${name}_results.csv
echo "binary,method,n,case,seed,status,objective,relative_gap,nodes,seconds" >"$out"
fit() {  # label=binary method n case seed
  rm -f "$scratch/row.csv"
  "${1#*=}" fit -g "psi_quadratic:n=$3,case=$4,seed=$5" -m "$2" --C 1 --search "$search" --time_limit "$limit" \
    --relative_gap 1e-4 "${extra[@]}" --out "$scratch/row.csv" >/dev/null 2>&1 || true
  /usr/bin/python3 - "$scratch/row.csv" "${1%%=*},$2,$3,$4,$5" >>"$out" <<'PY'
import csv, sys
row = list(csv.DictReader(open(sys.argv[1])))[0]
print(",".join([sys.argv[2], row["status"], row["objective"], row["mip_relative_gap"], row["mip_nodes"], row["time_s"]]))
PY
}
instance=0
for n in "${sizes[@]}"; do
  for case in "${cases[@]}"; do
    for seed in 1 2 3; do
      for method in "${methods[@]}"; do
        order=("${binaries[@]}")
        if ((instance++ % 2 == 1)); then order=($(printf '%s\n' "${binaries[@]}" | tac)); fi
        for binary in "${order[@]}"; do fit "$binary" "$method" "$n" "$case" "$seed"; done
      done
    done
  done
done
/usr/bin/python3 bench/mip_summary.py "$out" "$limit" | tee "bench/${name}_results.txt"
