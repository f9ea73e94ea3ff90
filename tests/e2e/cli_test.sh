#!/usr/bin/env bash
# End-to-end checks of the sparsesvm command: describe-data on every exported real set and every
# generator, and clear one-line errors with a non-zero exit on bad input.
# Usage: cli_test.sh PATH/TO/sparsesvm REPO_ROOT
set -uo pipefail
bin=$1
root=$2
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_ok() {  # expect_ok DESCRIPTION PATTERN COMMAND...
  local description=$1 pattern=$2
  shift 2
  if ! output=$("$@" 2>&1); then
    echo "FAIL: $description: exit $? -- $output"; failures=$((failures + 1)); return
  fi
  grep -q -- "$pattern" <<<"$output" || { echo "FAIL: $description: no '$pattern' in output"; failures=$((failures + 1)); }
}

expect_error() {  # expect_error DESCRIPTION PATTERN COMMAND...
  local description=$1 pattern=$2
  shift 2
  output=$("$@" 2>&1)
  local status=$?
  if ((status == 0)); then echo "FAIL: $description: exit 0"; failures=$((failures + 1)); return; fi
  grep -q -- "$pattern" <<<"$output" || { echo "FAIL: $description: no '$pattern' in: $output"; failures=$((failures + 1)); }
}

expect_ok "version" "clp 1." "$bin" --version
expect_ok "help lists describe-data" "describe-data" "$bin" --help
expect_ok "sonar" "examples  208 (+1: 111, -1: 97)" "$bin" describe-data "$root/datasets/sonar.csv"
expect_ok "ionosphere" "examples  351 (+1: 225, -1: 126)" "$bin" describe-data "$root/datasets/ionosphere.csv"
expect_ok "pima" "examples  768 (+1: 268, -1: 500)" "$bin" describe-data "$root/datasets/pima.csv"
expect_ok "wdbc" "examples  569 (+1: 212, -1: 357)" "$bin" describe-data "$root/datasets/wdbc.csv"
expect_ok "heart_scale" "examples  270 (+1: 120, -1: 150)" "$bin" describe-data "$root/datasets/heart_scale.libsvm"
for spec in dca_gaussians:noise_dims=100 psi_unit_disk:flip_count=2 psi_quadratic:case=4 rw_relevant:d_rel=5; do
  expect_ok "generator $spec" "generator ${spec%%:*}" "$bin" describe-data --generator "$spec"
done

printf '1,2,1\n3,4\n' >"$tmp/bad.csv"
expect_error "truncated line" "bad.csv:2: expected 3 fields, found 2" "$bin" describe-data "$tmp/bad.csv"
expect_error "missing file" "cannot open file" "$bin" describe-data "$tmp/none.csv"
expect_error "unknown generator" "unknown generator 'nope'" "$bin" describe-data --generator nope
expect_error "unknown loader option" "unknown delimited loader option 'bogus'" \
  "$bin" describe-data "$root/datasets/sonar.csv" -o bogus=1
expect_error "file and generator together" "not both" "$bin" describe-data "$root/datasets/sonar.csv" -g dca_gaussians
expect_error "no subcommand" "subcommand" "$bin"

if ((failures)); then echo "$failures check(s) failed"; exit 1; fi
echo "all CLI checks passed"
