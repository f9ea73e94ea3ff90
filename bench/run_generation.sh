#!/usr/bin/env bash
# Feature and example generation against the full LP and against HiGHS (scipy) on the same LP, on the
# arcene- and gisette-shaped stand-ins (generator nips2003_shaped), in one run. Every fit runs under
# /usr/bin/time (wall seconds, peak memory) and `timeout LIMIT` (a killed run prints "> LIMIT").
# Writes bench/generation_results.txt. Needs python3-scipy for HiGHS.
# Usage: bench/run_generation.sh [LIMIT_SECONDS]   (default 900)
set -uo pipefail
cd "$(dirname "$0")/.."
limit=${1:-900}
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DSPARSESVM_BUILD_BENCH=ON -DSPARSESVM_BUILD_TESTS=OFF -DSPARSESVM_BUILD_PYTHON=OFF >/dev/null
cmake --build build-bench -j "$(nproc)" --target generation_bench >/dev/null
bench=build-bench/bench/generation_bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grid=0.1,0.2,0.3,0.5,1,2,3,5,10
arcene="nips2003_shaped:n=200,d=10000,probes=3000,seed=1"
gisette="nips2003_shaped:n=6000,d=5000,probes=2500,seed=1"

# measure LABEL COMMAND...: one line "LABEL | seconds | peak MB | last line of output"
measure() {
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$tmp/time" timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err"
  local status=$?
  # /usr/bin/time puts "Command exited with non-zero status N" first when the command failed.
  read -r seconds kilobytes < <(tail -1 "$tmp/time") || { seconds=NA; kilobytes=0; }
  [[ "$kilobytes" =~ ^[0-9]+$ ]] || kilobytes=0
  if ((status == 124)); then seconds="> $limit"; fi
  printf '%-52s | %10s s | %6d MB | %s\n' "$label" "$seconds" $((kilobytes / 1024)) \
    "$(grep -v '^total' "$tmp/out" | tail -1 | cut -c1-220)"
}

# SECTIONS picks parts to run: arcene, gisette_lp (generation and full LP), gisette_highs, gisette_methods.
sections=${SECTIONS:-arcene gisette_lp gisette_highs gisette_methods}
wanted() { [[ " $sections " == *" $1 "* ]]; }
# Every method of configs/ong2010/large_shaped.yaml (lambda = 1; the DCA methods' a and mu at their defaults).
methods="SVM OneNormSVM ZeroNormSVM CapOneNormSVM RLSVM2 RLSVM1 RLSVM0 RLSVMC1"
output=bench/generation_results.txt
[[ -z "${SECTIONS:-}" ]] || output=/dev/null  # a partial run only prints
{
  echo "# bench/run_generation.sh on $(date -u +%Y-%m-%d), $(nproc) cores, limit $limit s per run, sections: $sections"
  echo "# data: $arcene; $gisette (standardized)"
  if wanted arcene; then
  echo "## arcene-shaped 200 x 10000: OneNormSVM over the DCA lambda grid, one workspace"
  measure "OneNormSVM path, generation" "$bench" "$arcene" OneNormSVM 2 "$grid"
  measure "OneNormSVM path, full LP" "$bench" "$arcene" OneNormSVM 1 "$grid"
  "$bench" "$arcene" OneNormSVM 2 1 --export "$tmp/arcene" >/dev/null
  measure "OneNormSVM path, HiGHS (scipy)" /usr/bin/python3 bench/highs_one_norm.py "$tmp/arcene" "$grid" "$limit"
  echo "## arcene-shaped: every method at lambda = 1, LP form by size (generation for the l1 LPs)"
  for method in $methods; do
    measure "$method lambda=1" "$bench" "$arcene" "$method" 0 1
  done
  fi
  echo "## gisette-shaped 6000 x 5000: lambda = 1 (the Fig. 15 setting)"
  if wanted gisette_lp; then
    measure "OneNormSVM, generation" "$bench" "$gisette" OneNormSVM 2 1
    measure "OneNormSVM, full LP" "$bench" "$gisette" OneNormSVM 1 1
  fi
  if wanted gisette_highs; then
    "$bench" "$gisette" OneNormSVM 2 1 --export "$tmp/gisette" >/dev/null
    measure "OneNormSVM, HiGHS (scipy)" /usr/bin/python3 bench/highs_one_norm.py "$tmp/gisette" 1 "$limit"
  fi
  if wanted gisette_methods; then
    echo "## gisette-shaped: every method at lambda = 1, LP form by size"
    for method in $methods; do
      measure "$method lambda=1" "$bench" "$gisette" "$method" 0 1
    done
  fi
} | tee "$output"
