#!/usr/bin/env bash
# Debian's reference BLAS against OpenBLAS (libopenblas0-serial) under Clp's dense LU: OneNormSVM and
# RLSVM0 at lambda 1 on the gisette-shaped LIBSVM file (nips2003_shaped 6000 x 5000, dense, not
# standardized), the two libraries interleaved RUNS times in one run. Each library is chosen for the
# process by LD_LIBRARY_PATH, whatever the system's alternative, and `sparsesvm --version` shows the
# one loaded. Prints status, objective, the fit's seconds as `fit` prints them, wall and CPU seconds with
# reading, peak resident memory.
# OpenBLAS is not installed here: installing libopenblas0-serial makes it the system's BLAS for every
# program (numpy's too); `update-alternatives --config libblas.so.3-x86_64-linux-gnu` (and
# liblapack.so.3-x86_64-linux-gnu) switches back. docs/benchmarks.md ("BLAS") says what it changes.
# Usage: bench/run_blas.sh [RUNS]   (default 3)
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
lib=/usr/lib/x86_64-linux-gnu
if [[ ! -e $lib/openblas-serial/libblas.so.3 ]]; then
  echo "run_blas: $lib/openblas-serial/libblas.so.3 not found; install libopenblas0-serial (as root: apt-get install libopenblas0-serial)" >&2
  exit 1
fi
cmake --build build -j "$(nproc)" --target sparsesvm >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$tmp/gisette_nips.libsvm
build/sparsesvm describe-data -g nips2003_shaped:n=6000,d=5000,probes=2500,seed=1 --max-features 1 --write-libsvm "$data" >/dev/null
declare -A path=([reference]="$lib/blas:$lib/lapack" [openblas]="$lib/openblas-serial")
for blas in reference openblas; do
  echo "$blas: $(LD_LIBRARY_PATH=${path[$blas]} build/sparsesvm --version | grep blas)"
done
echo "| run | method | BLAS | status | objective | fit s | wall s | CPU s | peak MB |"
echo "|---|---|---|---|---|---|---|---|---|"
for ((run = 1; run <= runs; ++run)); do
  for method in OneNormSVM RLSVM0; do
    for blas in reference openblas; do
      LD_LIBRARY_PATH=${path[$blas]} /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
        build/sparsesvm fit "$data" -f libsvm -o n_features=5000 -m "$method" --lambda 1 >"$tmp/out" 2>&1
      field() { awk -v key="$1" '$1 == key {print $2}' "$tmp/out"; }
      read -r wall user system peak <"$tmp/time"
      echo "| $run | $method | $blas | $(field status) | $(field objective) | $(field time) | $wall |" \
           "$(awk -v u="$user" -v s="$system" 'BEGIN {printf "%.1f", u + s}') | $((peak / 1024)) |"
    done
  done
done
