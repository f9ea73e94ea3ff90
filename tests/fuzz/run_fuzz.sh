#!/usr/bin/env bash
# Runs each libFuzzer harness for SECONDS (CI: 20; a long local run: 900 or more), seeded from the
# repository's data sets and configs and from tests/corpus/files/. A crash, a leak, a timeout (10 s per
# input), one allocation above 1 GiB or a live heap above 768 MiB (fuzz_input.hpp; the RSS limit of
# 4 GiB is only a backstop: ASan's quarantine and caches keep RSS at 2-3 times the live heap, and
# libFuzzer's RSS report stalls for minutes in ASan's heap profile) stops the harness, leaves the input in
# FINDINGS/<harness>/ and makes this script exit 1; minimize it with
#   BUILD/tests/fuzz/<harness> -minimize_crash=1 -runs=10000 FILE
# and add it to tests/corpus/files/ with its expected outcome in tests/corpus/files.txt.
# Usage: tests/fuzz/run_fuzz.sh [SECONDS] [BUILD_DIR] [FINDINGS_DIR]   (BUILD_DIR built with
# -DSPARSESVM_BUILD_FUZZ=ON, as scripts/sanitize.sh does); HARNESSES="fuzz_config" runs only some;
# FUZZ_TIMEOUT (default 10 s per input) is wall-clock time: raise it on a loaded machine.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
build=${2:-build-san}
findings=${3:-fuzz-findings}
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds"/{fuzz_delimited,fuzz_libsvm,fuzz_nips2003,fuzz_config}
# The readers' harnesses take one leading byte of options: seed with 0 (the defaults).
for file in datasets/sonar.csv datasets/iris.csv datasets/pima.csv; do
  { printf '\0'; head -c 4000 "$file"; } > "$seeds/fuzz_delimited/$(basename "$file")"
done
{ printf '\0'; head -c 4000 datasets/heart_scale.libsvm; } > "$seeds/fuzz_libsvm/heart_scale"
printf '\0%s\0%s' $'1 2 3\n4 5 6\n' $'1\n-1\n' > "$seeds/fuzz_nips2003/dense"
printf '\2%s\0%s' $'1:1 3:2\n2:1\n' $'1\n-1\n' > "$seeds/fuzz_nips2003/sparse"
find configs tests/data -name '*.yaml' -exec cp {} "$seeds/fuzz_config/" \;
if [[ -f tests/corpus/files.txt ]]; then
  while IFS='|' read -r name format _; do
    name=$(echo "$name" | xargs); format=$(echo "$format" | xargs)
    [[ -z "$name" || "$name" == \#* ]] && continue
    case "$format" in
      delimited) harness=fuzz_delimited ;; libsvm) harness=fuzz_libsvm ;; nips2003) harness=fuzz_nips2003 ;;
      *) harness=fuzz_config ;;
    esac
    cp "tests/corpus/files/$name" "$seeds/$harness/"
  done < tests/corpus/files.txt
fi
# A config seed that takes seconds to load under the sanitizers (a large generated set) would end the
# run as a "timeout" that is no bug: seeds slower than 3 s are left out.
for seed in "$seeds"/fuzz_config/*; do
  timeout 3 "$build/tests/fuzz/fuzz_config" "$seed" >/dev/null 2>&1 || { echo "run_fuzz: slow seed left out: $(basename "$seed")"; rm -f "$seed"; }
done
harnesses=${HARNESSES:-fuzz_delimited fuzz_libsvm fuzz_nips2003 fuzz_config}
status=0
for harness in $harnesses; do
  mkdir -p "$findings/$harness" "$seeds/$harness.work"
  echo "run_fuzz: $harness for $seconds s"
  if ! "$build/tests/fuzz/$harness" "$seeds/$harness.work" "$seeds/$harness" -max_total_time="$seconds" \
      -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=4096 -malloc_limit_mb=1024 -max_len=8192 -print_final_stats=1 \
      -artifact_prefix="$findings/$harness/" > "$findings/$harness.log" 2>&1; then
    echo "run_fuzz: $harness found a problem (log: $findings/$harness.log, input in $findings/$harness/)"
    tail -40 "$findings/$harness.log"
    status=1
  else
    grep -E "^stat::number_of_executed_units|^#[0-9]+ *DONE" "$findings/$harness.log" | tail -2
  fi
done
exit $status
