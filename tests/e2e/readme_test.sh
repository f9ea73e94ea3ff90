#!/usr/bin/env bash
# The README's commands run as written: its "Your own CSV" config (the YAML block, saved as the README
# says) with the commands below it, its sweep, override, shard and collect lines, status, list and
# describe. From the repository's root, as the README assumes; outputs go to a temporary directory.
# Usage: readme_test.sh PATH/TO/sparsesvm REPO_ROOT
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The first YAML block after "## Your own CSV".
/usr/bin/python3 - "$root/README.md" "$tmp/mine.yaml" <<'PY' || fail "README has no YAML block under '## Your own CSV'"
import sys
text = open(sys.argv[1]).read()
section = text[text.index("\n## Your own CSV\n"):]
start = section.index("```yaml\n") + len("```yaml\n")
open(sys.argv[2], "w").write(section[start:section.index("\n```", start)] + "\n")
PY
lines=$(wc -l <"$tmp/mine.yaml")
((lines <= 14)) || fail "the README's config has $lines lines; it promises a short one"

"$bin" run "$tmp/mine.yaml" --dry-run >"$tmp/plan" || fail "run --dry-run on the README's config exited $?"
grep -q "20 tasks over 4 methods" "$tmp/plan" || fail "dry-run plan: $(cat "$tmp/plan")"
"$bin" run "$tmp/mine.yaml" -j 2 -q --out "$tmp/mine" || fail "run -j 2 exited $?"
for file in results.csv table_accuracy.csv table_n_features.csv statuses.csv manifest.yaml; do
  [[ -s "$tmp/mine/$file" ]] || fail "the run wrote no $file"
done
"$bin" status "$tmp/mine" >"$tmp/status" || fail "status exited $?"
grep -q "statuses: converged 10, optimal 10" "$tmp/status" || fail "status: $(cat "$tmp/status")"
"$bin" describe-data datasets/sonar.csv >/dev/null || fail "describe-data exited $?"

# Sweeps, overrides, shards and collect, as the README writes them.
"$bin" run "$tmp/mine.yaml" --sweep a=2,4,8 --dry-run >"$tmp/sweep" || fail "--sweep exited $?"
grep -q "RLSVM0_a2, RLSVM0_a4, RLSVM0_a8" "$tmp/sweep" || fail "sweep labels: $(cat "$tmp/sweep")"
# The README's two run lines in the order printed, with their default directories: in a folder that holds
# mine.yaml, the data and build/sparsesvm, as a user's checkout does.
mkdir -p "$tmp/checkout/build"
ln -s "$root/datasets" "$tmp/checkout/datasets"
ln -s "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$tmp/checkout/build/sparsesvm"
cp "$tmp/mine.yaml" "$tmp/checkout/mine.yaml"
(cd "$tmp/checkout" && build/sparsesvm run mine.yaml -j 2 -q && build/sparsesvm run mine.yaml --sweep a=2,4,8 -q) \
  >"$tmp/in_order.log" 2>&1 || fail "run mine.yaml -j 2, then run mine.yaml --sweep a=2,4,8: $(tail -3 "$tmp/in_order.log")"
[[ -s "$tmp/checkout/results/mine/table_accuracy.csv" ]] || fail "run mine.yaml -j 2 wrote no results/mine"
grep -q "RLSVM0_a8" "$tmp/checkout/results/mine_sweep_a_2_4_8/table_accuracy.csv" 2>/dev/null ||
  fail "the sweep wrote no results/mine_sweep_a_2_4_8 with its variants"
"$bin" run "$tmp/mine.yaml" protocol.outer.repetitions=20 --dry-run >"$tmp/override" || fail "override exited $?"
grep -q "80 tasks" "$tmp/override" || fail "override plan: $(cat "$tmp/override")"
for shard in 0 1 2 3; do
  "$bin" run "$tmp/mine.yaml" --shard $shard/4 -q --out "$tmp/sharded" || fail "shard $shard/4 exited $?"
done
"$bin" collect "$tmp/sharded" >/dev/null || fail "collect of 4 shards exited $?"
cmp -s "$tmp/sharded/table_accuracy.csv" "$tmp/mine/table_accuracy.csv" || fail "sharded tables differ from the -j 2 run"
grep -q -- "--shards N" scripts/slurm_array.sh && grep -q -- "--time T" scripts/slurm_array.sh ||
  fail "slurm_array.sh lacks the options the README uses"

# The papers' tables: list and describe.
"$bin" list >"$tmp/list" || fail "list exited $?"
grep -q "configs/beyond/all_methods.yaml" "$tmp/list" || fail "list does not name configs/beyond/all_methods.yaml"
"$bin" describe RLSVM0 >/dev/null || fail "describe RLSVM0 exited $?"
# configs/beyond/all_methods.yaml plans every registered method (issue 26): its plan names exactly the
# methods `list` prints.
registered=$(sed -n '/^methods/,/^generators/p' "$tmp/list" | awk '/^  [A-Za-z]/ {print $1}' | sort)
planned=$("$bin" run configs/beyond/all_methods.yaml --dry-run --out "$tmp/all_methods" | sed -n 's/^methods: //p' | tr ',' '\n' | tr -d ' ' | sort)
[[ -n "$registered" && "$registered" == "$planned" ]] ||
  fail "all_methods plans other methods than the registry: $(diff <(echo "$registered") <(echo "$planned") | head -5)"
"$bin" run configs/ong2010/uci.yaml --skip-missing --dry-run >/dev/null || fail "dry-run of ong2010/uci exited $?"
# Every page the README links to exists.
for page in $(grep -o '(docs/[a-z_.-]*\.md' README.md | tr -d '(' | sort -u); do
  [[ -f "$page" ]] || fail "README links to $page, which does not exist"
done
((failures == 0)) && echo "readme_test: all passed"
exit $((failures > 0))
