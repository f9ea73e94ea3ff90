#!/usr/bin/env bash
# By size's rule for wide sparse data (models/convex_step.hpp, kWideGenerationExamples): OneNormSVM on
# shapes with d >= 4n, more than 200 examples and at most 1.5e5 nonzeros, which by size sent to the full
# LP before the rule and to generation (handing over to the crossover where it stalls) since. Each case
# is fitted with `--lp_form full` (what by size chose before) and then `--lp_form by_size`, one fit at a
# time, the two forms interleaved case by case, RUNS times. Cases: the first 250, 500, 1000 and 1400 rows
# of issue 37's uniform 2000 x 20000 draw and the first 500 of its `presence` draw
# (bench/uniform_sparse_draw.py, written once to $BENCH_DATA), text-shaped and one-hot (sparse_categorical)
# draws generated in process. Prints one line a fit: case, form, CPU seconds (user + sys), peak resident
# MB, status, objective, simplex iterations; then per case the CPU ratio by_size / full of the last run.
# Usage: bash bench/run_wide_rule.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/fit_summary.sh
runs=${1:-1}
binary=${SPARSESVM:-build/sparsesvm}
data=${BENCH_DATA:-/tmp/sparsesvm_crossover_bench}
mkdir -p "$data"
[[ -f $data/uniform.libsvm ]] || /usr/bin/python3 bench/uniform_sparse_draw.py "$data/uniform.libsvm"
[[ -f $data/presence.libsvm ]] ||
  /usr/bin/python3 bench/uniform_sparse_draw.py "$data/presence.libsvm" 1000 4000 0.04 5 presence
for rows in 250 500 1000 1400; do
  [[ -f $data/uniform$rows.libsvm ]] || head -n "$rows" "$data/uniform.libsvm" >"$data/uniform$rows.libsvm"
done
[[ -f $data/presence500.libsvm ]] || head -n 500 "$data/presence.libsvm" >"$data/presence500.libsvm"
text=text_shaped:d=20000,nnz_per_row=100,informative=200,seed=1
onehot=sparse_categorical:n=700,attributes=21,informative=3,flip_fraction=0.02,seed=1
cases=()
for rows in 250 500 1000 1400; do
  for lambda in 1 0.1; do cases+=("uniform$rows λ$lambda|-f libsvm $data/uniform$rows.libsvm --lambda $lambda"); done
done
for lambda in 3 1; do cases+=("presence500 λ$lambda|-f libsvm $data/presence500.libsvm --lambda $lambda"); done
for rows in 300 1200; do
  for lambda in 1 0.1 0.01; do cases+=("text$rows λ$lambda|-g $text,n=$rows --lambda $lambda"); done
done
cases+=("text1200x5000 λ0.01|-g text_shaped:n=1200,d=5000,nnz_per_row=50,informative=100,seed=2 --lambda 0.01")
for d in 5000 20000; do
  for lambda in 1 0.01; do cases+=("onehot700x$d λ$lambda|-g $onehot,d=$d --lambda $lambda"); done
done

# One fit: prints its line and leaves its CPU seconds in $cpu.
fit_line() {
  local name=$1 form=$2 arguments=$3 log
  log=$(mktemp)
  # shellcheck disable=SC2086  # the arguments are words
  /usr/bin/time -f "cpu %U %S %M" "$binary" fit -m OneNormSVM $arguments --lp_form "$form" >"$log" 2>&1 || true
  cpu=$(awk '$1 == "cpu" { print $2 + $3 }' "$log")
  summarize_fit "$log" "$name" "$form"
  rm -f "$log"
}

declare -A full_cpu by_size_cpu
for _ in $(seq "$runs"); do
  for entry in "${cases[@]}"; do
    name=${entry%%|*}
    fit_line "$name" full "${entry#*|}"
    full_cpu[$name]=$cpu
    fit_line "$name" by_size "${entry#*|}"
    by_size_cpu[$name]=$cpu
  done
done
echo "case | full (before) s | by_size (after) s | after / before"
for entry in "${cases[@]}"; do
  name=${entry%%|*}
  awk -v name="$name" -v before="${full_cpu[$name]}" -v after="${by_size_cpu[$name]}" \
    'BEGIN { printf "%s | %.2f | %.2f | %.2f\n", name, before, after, after / before }'
done
