#!/usr/bin/env bash
# `lp_form: crossover` (models/lp_crossover.hpp) on the LPs it is for, OneNormSVM fits one at a time, the
# binaries interleaved run by run: the current build ("after") and, with BEFORE=<an older sparsesvm>,
# that one ("before", first); HiGHS's interior point (Debian's scipy) on the same LP as the time reference
# where HIGHS=1. Cases: issue 37's uniform 2000 x 20000 draw (bench/uniform_sparse_draw.py) at lambda 1
# its 1000 x 4000 `presence` draw at lambda 3 (a bad crossover guess) and its 4000 x 20000 sibling at
# lambda 1 (`uniform4000`: a first restricted LP of 2 x 10^4 pivots), written once to $BENCH_DATA;
# the Reuters-shaped 5000 rows at lambda 0.1 (generated in process); with GISETTE=1 also `rw_relevant`'s
# gisette shape at lambda 1 (under `timeout`, LIMIT seconds, default 600).
# METHODS (default OneNormSVM) and FORMS (lp_form values, default crossover) widen the grid, CASES (names,
# default all) narrows it: `CASES=uniform FORMS="generation by_size" METHODS="OneNormSVM ZeroNormSVM"`
# sets by-size's hand-over to crossover (convex_step.hpp) beside generation alone, the default before it.
# Prints one line a fit: case, binary (with method and form where they vary), CPU seconds (user + sys),
# peak resident MB, status, objective, simplex iterations.
# Usage: [BEFORE=path] [HIGHS=1] [GISETTE=1] [METHODS=..] [FORMS=..] [CASES=..] bash bench/run_crossover.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/before_after.sh
runs=${1:-2}
limit=${LIMIT:-600}
data=${BENCH_DATA:-/tmp/sparsesvm_crossover_bench}
mkdir -p "$data"
[[ -f $data/uniform.libsvm ]] || /usr/bin/python3 bench/uniform_sparse_draw.py "$data/uniform.libsvm"
[[ -f $data/presence.libsvm ]] ||
  /usr/bin/python3 bench/uniform_sparse_draw.py "$data/presence.libsvm" 1000 4000 0.04 5 presence
[[ -f $data/uniform4000.libsvm ]] ||
  /usr/bin/python3 bench/uniform_sparse_draw.py "$data/uniform4000.libsvm" 4000 20000 0.005 20
cases=("uniform|-f libsvm $data/uniform.libsvm --lambda 1"
       "uniform4000|-f libsvm $data/uniform4000.libsvm --lambda 1"
       "presence|-f libsvm $data/presence.libsvm --lambda 3"
       "reuters5000|-g text_shaped:n=5000,d=47236,nnz_per_row=77,informative=500,seed=1 --lambda 0.1")
if [[ -n "${GISETTE:-}" ]]; then
  cases+=("gisette_gauss|-g rw_relevant:n=6000,d=5000,d_rel=2500,distance=3,seed=1 --lambda 1")
fi

read -r -a methods <<<"${METHODS:-OneNormSVM}"
read -r -a forms <<<"${FORMS:-crossover}"
read -r -a wanted <<<"${CASES:-}"

# One fit: its CPU seconds and peak from /usr/bin/time, the rest from the fit's own report.
fit_line() {
  local name=$1 label=$2 binary=$3 arguments=$4 method=$5 form=$6 log
  log=$(mktemp)
  if (( ${#methods[@]} > 1 || ${#forms[@]} > 1 )); then label="$label $method $form"; fi
  # shellcheck disable=SC2086  # the arguments are words
  /usr/bin/time -f "cpu %U %S %M" timeout "$limit" "$binary" fit -m "$method" $arguments --lp_form "$form" >"$log" 2>&1 || true
  awk -v name="$name" -v label="$label" '
    $1 == "status" { status = $2 }
    $1 == "objective" { objective = $2 }
    $1 == "iterations" { iterations = $4 }
    $1 == "cpu" { cpu = $2 + $3; mb = $4 / 1024 }
    END { printf "%-14s %-7s %8.1f s %7.0f MB  %-18s %-14s %s\n", name, label, cpu, mb,
          (status == "" ? "no answer" : status), objective, iterations }' "$log"
  rm -f "$log"
}

for _ in $(seq "$runs"); do
  for entry in "${cases[@]}"; do
    name=${entry%%|*}
    if (( ${#wanted[@]} > 0 )) && [[ " ${wanted[*]} " != *" $name "* ]]; then continue; fi
    for method in "${methods[@]}"; do
      for form in "${forms[@]}"; do
        for pair in "${binaries[@]}"; do
          fit_line "$name" "${pair%%=*}" "${pair#*=}" "${entry#*|}" "$method" "$form"
        done
      done
    done
    if [[ -n "${HIGHS:-}" && $name == uniform ]]; then
      /usr/bin/time -f "%e s wall, %U s user, %M KB" timeout "$limit" /usr/bin/python3 bench/highs_libsvm_one_norm.py \
        "$data/uniform.libsvm" 1 "$limit" highs-ipm 20000 2>&1 | sed -n '1p;$p' | sed 's/^/uniform        HiGHS-ipm /'
    fi
  done
done
