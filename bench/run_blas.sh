#!/usr/bin/env bash
# Debian's reference BLAS against OpenBLAS (libopenblas0-serial) under Clp's dense LU: OneNormSVM and
# RLSVM0 at lambda 1 on the gisette-shaped LIBSVM file (nips2003_shaped 6000 x 5000, dense, not
# standardized), the two libraries interleaved RUNS times in one run, their order swapped every other run.
# Each library is chosen for the process by LD_LIBRARY_PATH, whatever the system's alternative, and
# checked in `sparsesvm --version`'s lapack_blas line. Prints status, objective, the fit's seconds as `fit`
# prints them, wall and CPU seconds with reading, peak resident memory; a fit past LIMIT seconds prints
# "> LIMIT".
# Needs libopenblas0-serial beside Debian's reference BLAS and LAPACK (libblas3, liblapack3). Installing
# it makes OpenBLAS the system's BLAS for every program (numpy's too): docs/building.md ("A faster BLAS")
# says how to keep the reference as the default.
# Usage: bench/run_blas.sh [RUNS] [LIMIT]   (defaults 3 and 600)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
runs=${1:-3}
limit=${2:-600}
lib=/usr/lib/x86_64-linux-gnu
declare -A path=([reference]="$lib/blas:$lib/lapack" [openblas]="$lib/openblas-serial")
for file in "$lib/blas/libblas.so.3" "$lib/lapack/liblapack.so.3" "$lib/openblas-serial/liblapack.so.3"; do
  if [[ ! -e $file ]]; then
    echo "run_blas: $file not found; install libblas3, liblapack3 and libopenblas0-serial (as root: apt-get install ...)" >&2
    exit 1
  fi
done
cmake --build build -j "$(nproc)" --target sparsesvm >/dev/null || exit 1
for blas in reference openblas; do
  loaded=$(LD_LIBRARY_PATH=${path[$blas]} build/sparsesvm --version | grep lapack_blas)
  echo "$blas:$loaded"
  if [[ $loaded != *"${path[$blas]%%:*}/"* ]]; then
    echo "run_blas: the $blas run would not load ${path[$blas]%%:*}/" >&2
    exit 1
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$tmp/gisette_nips.libsvm
build/sparsesvm describe-data -g nips2003_shaped:n=6000,d=5000,probes=2500,seed=1 --max-features 1 --write-libsvm "$data" >/dev/null
echo "| run | method | BLAS | status | objective | fit s | wall s | CPU s | peak MB |"
echo "|---|---|---|---|---|---|---|---|---|"
for ((run = 1; run <= runs; ++run)); do
  order=(reference openblas)
  ((run % 2 == 0)) && order=(openblas reference)
  for method in OneNormSVM RLSVM0; do
    for blas in "${order[@]}"; do
      LD_LIBRARY_PATH=${path[$blas]} /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" timeout "$limit" \
        build/sparsesvm fit "$data" -f libsvm -o n_features=5000 -m "$method" --lambda 1 >"$tmp/out" 2>&1
      code=$?
      # time(1) writes "Command exited with non-zero status N" above its line when the command fails.
      read -r wall user system peak < <(tail -1 "$tmp/time")
      field() { awk -v key="$1" '$1 == key {print $2}' "$tmp/out"; }
      if ((code == 124)); then
        status="> $limit s"
      elif ((code != 0)); then
        status="exit $code: $(tail -1 "$tmp/out")"
      else
        status=$(field status)
      fi
      echo "| $run | $method | $blas | $status | $(field objective) | $(field time) | $wall |" \
           "$(awk -v u="$user" -v s="$system" 'BEGIN {printf "%.1f", u + s}') | $((peak / 1024)) |"
    done
  done
done
