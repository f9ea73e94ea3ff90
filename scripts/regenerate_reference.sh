#!/usr/bin/env bash
# Reruns configs whose data are present offline and copies their tables, summary, statuses, paired tests,
# comparison tests, ranks and Friedman tests,
# convergence tables, objective ratios, the comparison with the paper, figures (drawn by scripts/plot.py) and manifest into results/reference/<reference
# name>/ (the effort and race configs keep their results.csv too, for the objective traces). Usage: scripts/regenerate_reference.sh [-j N] CONFIG[:REFERENCE]...   (default: every config
# that has reference results). Each run goes to a fresh results/<reference>/ so nothing is reused.
# A reference run that cannot run the whole config here takes its overrides (one per line) from
# results/reference/<reference>/overrides.txt, which is kept; its README.md says why. The reference is
# named after the config unless CONFIG:REFERENCE names another, <config name>_SUFFIX: a second reference of
# one config, run with its own overrides (configs/liu2006/simulation.yaml:liu2006_simulation_psi_case1 and
# :liu2006_simulation_psi_case2 hold the psi rows of one case each, the second at fewer replications).
# REUSE_RUNS=1 keeps the earlier run in results/<reference name>/: run then skips every task whose id is
# unchanged (for changes of collect's output or of figures; the formatted tables must come out unchanged).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
sparsesvm=${SPARSESVM:-./build/sparsesvm}   # another build: SPARSESVM=build-dev/sparsesvm scripts/regenerate_reference.sh
if [[ "${1:-}" == "-j" ]]; then jobs=$2; shift 2; fi
configs=("$@")
if ((${#configs[@]} == 0)); then
  configs=(configs/bradley1998/uci.yaml configs/ong2010/uci.yaml configs/ong2010/sim_features.yaml
           configs/ong2010/sim_labelnoise.yaml configs/ong2010/sim_both.yaml configs/ong2010/effort.yaml
           configs/ong2010/uci_mu.yaml configs/walk/convergence.yaml configs/walk/accuracy.yaml
           configs/walk/relevant.yaml configs/walk/relevant_near_zero.yaml configs/admm/penalties.yaml
           configs/admm/scaling.yaml configs/ong2010/large_shaped.yaml configs/liu2006/choice_of_a.yaml
           configs/liu2006/simulation.yaml configs/liu2006/simulation.yaml:liu2006_simulation_psi_case1
           configs/liu2006/simulation.yaml:liu2006_simulation_psi_case2 configs/liu2006/wdbc.yaml configs/liu2006/paths.yaml
           configs/liu2006/boundary.yaml configs/beyond/dca_global_gap.yaml configs/ong2010/mu_sweep.yaml
           configs/beyond/all_methods.yaml configs/admm/race.yaml configs/beyond/rare_class.yaml
           configs/walk/reuters_shaped.yaml)
fi
# A reference is evidence only when a commit produces it: the tree must match HEAD (results/ and Markdown
# aside, but not the reference runs' overrides.txt) and the binary must be built from HEAD, so that every manifest names a commit in the history.
dirty=$(git status --porcelain -- . ':!results' ':!*.md'; git status --porcelain -- 'results/reference/*/overrides.txt')
if [[ -n "$dirty" ]]; then
  echo "regenerate_reference: uncommitted changes; commit them first (a reference must name the commit that made it):" >&2
  echo "$dirty" >&2
  exit 1
fi
head=$(git rev-parse --short=12 HEAD)
built=$("$sparsesvm" --version | sed -n '1s/.*(commit \(.*\))/\1/p')
if [[ "$built" != "$head" ]]; then
  echo "regenerate_reference: $sparsesvm is built from '$built', HEAD is $head; rebuild first (cmake --build build)" >&2
  exit 1
fi
# An argument's config: the argument when it is a file (a path may hold ':'), else what precedes its last ':'.
config_of() { if [[ -f "$1" ]]; then echo "$1"; else echo "${1%:*}"; fi; }
# The reference an argument makes: CONFIG's name, or for CONFIG:REFERENCE a name that begins with CONFIG's
# name and an underscore and has its own overrides.txt (its directory is emptied below, so nothing else).
reference_name() {
  local config own
  config=$(config_of "$1")
  own=$(awk '/^name:/ {print $2; exit}' "$config" 2>/dev/null)
  if [[ -z "$own" ]]; then
    echo "regenerate_reference: $config: no 'name:' line (a reference is named after its config)" >&2
    return 1
  fi
  if [[ "$config" == "$1" ]]; then echo "$own"; return; fi
  local name=${1##*:}
  if [[ ! "$name" =~ ^${own}_[A-Za-z0-9._=-]+$ || ! -f "results/reference/$name/overrides.txt" ]]; then
    echo "regenerate_reference: $1: expected CONFIG:${own}_SUFFIX with results/reference/${own}_SUFFIX/overrides.txt" >&2
    return 1
  fi
  echo "$name"
}
for argument in "${configs[@]}"; do reference_name "$argument" >/dev/null || exit 1; done   # all, before any run
for argument in "${configs[@]}"; do
  config=$(config_of "$argument")
  name=$(reference_name "$argument")
  [[ "${REUSE_RUNS:-0}" == 1 ]] || rm -rf "results/$name"
  overrides=()
  if [[ -f "results/reference/$name/overrides.txt" ]]; then
    mapfile -t overrides < <(grep -v '^#' "results/reference/$name/overrides.txt" | grep -v '^ *$')
  fi
  "$sparsesvm" run "$config" "${overrides[@]}" -j "$jobs" -q --skip-missing --out "results/$name"
  mkdir -p "results/reference/$name"
  find "results/reference/$name" -maxdepth 1 -type f ! -name overrides.txt ! -name README.md -delete
  cp "results/$name"/manifest.yaml "results/$name"/summary.csv "results/$name"/statuses.csv "results/$name"/table_*.csv \
    "results/reference/$name/"
  for extra in "results/$name"/tests_*.csv "results/$name"/ranks_*.csv; do
    if [[ -f "$extra" ]]; then cp "$extra" "results/reference/$name/"; fi   # (an unmatched glob stays as it is)
  done
  for extra in friedman.csv paired_test.csv convergence.csv convergence_by_walk.csv objective_ratio.csv paper_comparison.csv; do
    if [[ -f "results/$name/$extra" ]]; then cp "results/$name/$extra" "results/reference/$name/"; fi
  done
  if [[ -f "results/$name/figures.json" ]]; then
    /usr/bin/python3 scripts/plot.py "results/$name" >/dev/null
    cp "results/$name"/*.png "results/$name/index.html" "results/reference/$name/"
  fi
  # results.csv where the reference needs its rows: the objective traces (effort); every row's status and
  # certificate (all_methods).
  if [[ "$name" == ong2010_effort || "$name" == beyond_all_methods || "$name" == admm_race ]]; then
    cp "results/$name/results.csv" "results/reference/$name/"
  fi
  echo "regenerated results/reference/$name"
done
