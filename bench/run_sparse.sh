#!/usr/bin/env bash
# Sparse text-shaped and dense gisette-shaped data (issue 37): sparsesvm's LP-based, DCA, ADMM and l2
# methods at lambda 1 (ADMM-L1 also at 1/n, the same objective as OneNormSVM's divided by n) against liblinear -s 3 (l2-regularized L1-loss SVM, dual CD) and -s 5 (l1-regularized
# squared hinge, a different and smooth loss: a time reference) and HiGHS through Debian's scipy on
# OneNormSVM's own LP, in one interleaved run on one machine. Each fit runs under /usr/bin/time (CPU =
# user + system seconds, peak resident memory) and `timeout LIMIT`; a killed run prints "> LIMIT".
# The data are drawn by our generators and written once as LIBSVM files (describe-data --write-libsvm),
# which every tool reads, so reading the file is in every tool's time.
# Writes bench/sparse_results.txt (or prints only, with SECTIONS set).
# Usage: bench/run_sparse.sh [LIMIT_SECONDS]   (default 120); SECTIONS="text2k text20k ..." picks data sets
# (text34k and text50k, sets Clp answers in no route in 20 minutes, only when named), METHODS="SVM ..."
# sparsesvm's methods, OTHERS="admm liblinear-s3 liblinear-s5 highs highs-ipm" the other fits (the l2 SVM's
# ratio alone: METHODS=SVM OTHERS=liblinear-s3; highs-ipm: HiGHS's interior point), FIT_OPTIONS="--simplex_iteration_limit
# 20000" options for sparsesvm's fits. Any of the four set: prints only.
set -uo pipefail
cd "$(dirname "$0")/.."
limit=${1:-120}
bash scripts/install_packages.sh liblinear-tools python3-scipy python3-sklearn >/dev/null
cmake --build build -j "$(nproc)" --target sparsesvm >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A spec=(
  [text2k]="text_shaped:n=2000,d=20000,nnz_per_row=100,informative=100,seed=1"
  [text20k]="text_shaped:n=20000,d=50000,nnz_per_row=50,informative=200,seed=1"
  [reuters]="text_shaped:n=23149,d=47236,nnz_per_row=77,informative=500,seed=1"
  [text100k]="text_shaped:n=100000,d=100000,nnz_per_row=50,informative=500,seed=1"
  [text34k]="text_shaped:n=34000,d=25000,nnz_per_row=25,seed=3"
  [text50k]="text_shaped:n=50000,d=25000,nnz_per_row=30,seed=4"
  [gisette_nips]="nips2003_shaped:n=6000,d=5000,probes=2500,seed=1"
  [gisette_gauss]="rw_relevant:n=6000,d=5000,d_rel=2500,distance=3,seed=1"
  [gisette_dca]="dca_gaussians:n=6000,informative=2500,noise_dims=2500,seed=1"
)
sections=${SECTIONS:-text2k text20k reuters text100k gisette_nips gisette_gauss gisette_dca}
methods=${METHODS:-OneNormSVM ZeroNormSVM RLSVM0 RLSVM1 SVM}
others=" ${OTHERS:-admm liblinear-s3 liblinear-s5 highs} "
read -r -a fit_options <<<"${FIT_OPTIONS:-}"
output=bench/sparse_results.txt
[[ -z "${SECTIONS:-}${METHODS:-}${OTHERS:-}${FIT_OPTIONS:-}" ]] || output=/dev/null

# measure LABEL COMMAND...: "LABEL | cpu s | peak MB | the command's summary"
measure() {
  local label=$1
  shift
  /usr/bin/time -f "%U %S %M" -o "$tmp/time" timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err"
  local status=$?
  local user system kilobytes cpu
  read -r user system kilobytes < <(tail -1 "$tmp/time") || { user=0; system=0; kilobytes=0; }
  cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
  ((status == 124)) && cpu="> $limit"
  local summary
  summary=$(grep -E '^(status|certificate|objective|features)' "$tmp/out" | awk '{print $1 "=" ($1 == "certificate" ? $3 : $2)}' | tr '\n' ' ')
  [[ -n "$summary" ]] || summary=$(cat "$tmp/out" "$tmp/err" | grep -v '^$' | tail -2 | tr '\n' ' ' | cut -c1-240)
  printf '%-14s %-34s | %9s s | %6d MB | %s\n' "$data" "$label" "$cpu" $((kilobytes / 1024)) "$summary"
}

{
  echo "# bench/run_sparse.sh, limit ${limit} s per fit, $(date -u +%Y-%m-%d), $(nproc) cores; $(build/sparsesvm --version | head -1)"
  echo "# data            tool                               |  CPU      | peak   | answer"
  for data in $sections; do
    file="$tmp/$data.libsvm"
    build/sparsesvm describe-data -g "${spec[$data]}" --max-features 1 --write-libsvm "$file" >/dev/null
    echo "## $data: ${spec[$data]}"
    n=$(wc -l <"$file")
    for method in $methods; do
      measure "sparsesvm $method${FIT_OPTIONS:+ $FIT_OPTIONS}" build/sparsesvm fit -m "$method" -f libsvm "$file" --lambda 1 "${fit_options[@]}"
    done
    # ADMM's F is the mean hinge + lambda ||w||_1: lambda = 1/n is OneNormSVM's objective divided by n.
    if [[ "$others" == *" admm "* ]]; then
      measure "sparsesvm ADMM-L1 (lambda 1/n)" build/sparsesvm fit -m ADMM-L1 -f libsvm "$file" --lambda "$(awk -v n="$n" 'BEGIN { printf "%.10g", 1 / n }')"
    fi
    [[ "$others" != *" liblinear-s3 "* ]] || measure "liblinear -s 3 (l2, hinge)" liblinear-train -s 3 -c 1 -B 1 -q "$file" "$tmp/model"
    [[ "$others" != *" liblinear-s5 "* ]] || measure "liblinear -s 5 (l1, sq. hinge)" liblinear-train -s 5 -c 1 -B 1 -q "$file" "$tmp/model"
    [[ "$others" != *" highs "* ]] || measure "HiGHS OneNormSVM LP" /usr/bin/python3 bench/highs_libsvm_one_norm.py "$file" 1 "$limit"
    [[ "$others" != *" highs-ipm "* ]] || measure "HiGHS OneNormSVM LP, interior pt" /usr/bin/python3 bench/highs_libsvm_one_norm.py "$file" 1 "$limit" highs-ipm
    rm -f "$file"
  done
} | tee "$output"
