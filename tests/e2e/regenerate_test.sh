#!/usr/bin/env bash
# scripts/regenerate_reference.sh refuses to make a reference that no commit produces: in a scratch git
# repository holding the script, a modified tracked file (a reference run's overrides.txt too) or a binary
# built from another commit exits 1 before anything runs; a clean tree and a binary built from HEAD get
# past the checks (to the run); CONFIG:REFERENCE runs with that reference's overrides into results/REFERENCE,
# also for a config whose path holds ':'; and a REFERENCE that is not <config name>_SUFFIX with an
# overrides.txt, or a config without a name, is refused before anything runs or is deleted.
# Usage: regenerate_test.sh REPO_ROOT
set -uo pipefail
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
git_quiet() { git -C "$tmp/repo" -c user.name=test -c user.email=test@localhost "$@" >/dev/null 2>&1; }

mkdir -p "$tmp/repo/scripts" "$tmp/repo/lib" "$tmp/repo/results/reference/tiny" "$tmp/repo/results/reference/tiny_part"
echo "protocol.outer.repetitions=2" >"$tmp/repo/results/reference/tiny/overrides.txt"
echo "methods=[SVM]" >"$tmp/repo/results/reference/tiny_part/overrides.txt"
cp "$root/scripts/regenerate_reference.sh" "$tmp/repo/scripts/"
echo "int x;" >"$tmp/repo/lib/code.cpp"
echo "# notes" >"$tmp/repo/README.md"
printf 'name: tiny\n' >"$tmp/repo/tiny.yaml"
git_quiet init -q && git_quiet add -A && git_quiet commit -q -m start || { echo "FAIL: git unavailable"; exit 1; }
head=$(git -C "$tmp/repo" rev-parse --short=12 HEAD)
# A stand-in for the binary: its --version names a commit; `run` records that it was reached.
fake() {
  cat >"$tmp/fake" <<FAKE
#!/usr/bin/env bash
if [[ "\$1" == --version ]]; then echo "sparsesvm 0.1.0 (commit $1)"; exit 0; fi
echo "\$*" >"$tmp/ran"; exit 7
FAKE
  chmod +x "$tmp/fake"
}
attempt() {  # [CONFIG argument]
  rm -f "$tmp/ran"; SPARSESVM="$tmp/fake" bash "$tmp/repo/scripts/regenerate_reference.sh" "${1:-tiny.yaml}" >"$tmp/out" 2>&1
}

fake "$head"
echo "int y;" >>"$tmp/repo/lib/code.cpp"
attempt; code=$?
[[ $code -eq 1 ]] || fail "a modified source file: exit $code, expected 1"
grep -q "uncommitted changes" "$tmp/out" || fail "a modified source file: no 'uncommitted changes' message: $(cat "$tmp/out")"
[[ ! -e "$tmp/ran" ]] || fail "a modified source file: the run started"
git -C "$tmp/repo" checkout -q -- lib/code.cpp

echo "methods=[SVM]" >>"$tmp/repo/results/reference/tiny/overrides.txt"   # a reference run's overrides count
attempt; code=$?
[[ $code -eq 1 ]] || fail "a modified overrides.txt: exit $code, expected 1"
[[ ! -e "$tmp/ran" ]] || fail "a modified overrides.txt: the run started"
git -C "$tmp/repo" checkout -q -- results/reference/tiny/overrides.txt

fake "$head+uncommitted"
attempt; code=$?
[[ $code -eq 1 ]] || fail "a binary built from a dirty tree: exit $code, expected 1"
grep -q "rebuild first" "$tmp/out" || fail "a binary built from a dirty tree: no 'rebuild first' message: $(cat "$tmp/out")"
[[ ! -e "$tmp/ran" ]] || fail "a binary built from a dirty tree: the run started"

fake "$head"
echo "more notes" >>"$tmp/repo/README.md"                    # documentation and references may be dirty
echo "x" >"$tmp/repo/results/reference/table.csv"
attempt
[[ -e "$tmp/ran" ]] || fail "a clean tree and a binary from HEAD did not reach the run: $(cat "$tmp/out")"
grep -q "run tiny.yaml protocol.outer.repetitions=2 .*--out results/tiny\$" "$tmp/ran" ||
  fail "the config's own reference: ran '$(cat "$tmp/ran")'"
attempt tiny.yaml:tiny_part
grep -q "run tiny.yaml methods=\[SVM\] .*--out results/tiny_part\$" "$tmp/ran" ||
  fail "a second reference of the config: ran '$(cat "$tmp/ran" 2>/dev/null)', expected its overrides and directory"

mkdir -p "$tmp/repo/runs:2026" && cp "$tmp/repo/tiny.yaml" "$tmp/repo/runs:2026/tiny.yaml"   # a path that holds ':'
git_quiet add -A && git_quiet commit -q -m "a config under a directory whose name holds ':'"
fake "$(git -C "$tmp/repo" rev-parse --short=12 HEAD)"
attempt "runs:2026/tiny.yaml"
grep -q "run runs:2026/tiny.yaml protocol.outer.repetitions=2 .*--out results/tiny\$" "$tmp/ran" 2>/dev/null ||
  fail "a config path with ':': ran '$(cat "$tmp/ran" 2>/dev/null)' ($(cat "$tmp/out"))"
attempt "runs:2026/tiny.yaml:tiny_part"
grep -q "run runs:2026/tiny.yaml methods=\[SVM\] .*--out results/tiny_part\$" "$tmp/ran" 2>/dev/null ||
  fail "a config path with ':' and a second reference: ran '$(cat "$tmp/ran" 2>/dev/null)' ($(cat "$tmp/out"))"

mkdir -p "$tmp/repo/results/reference/other" && echo "methods=[SVM]" >"$tmp/repo/results/reference/other/overrides.txt"
printf 'seed: 1\n' >"$tmp/repo/unnamed.yaml"
git_quiet add -A && git_quiet commit -q -m "another reference, a config without a name"
fake "$(git -C "$tmp/repo" rev-parse --short=12 HEAD)"
for bad in "tiny.yaml:" "tiny.yaml:reference" "tiny.yaml:../lib" "tiny.yaml:tiny_typo" "tiny.yaml:other" "unnamed.yaml"; do
  attempt "$bad"; code=$?
  [[ $code -eq 1 && ! -e "$tmp/ran" ]] || fail "$bad: exit $code, expected 1 before the run"
  [[ -f "$tmp/repo/results/reference/tiny/overrides.txt" && -f "$tmp/repo/lib/code.cpp" ]] || fail "$bad: deleted files"
done

rm -f "$tmp/ran"   # every argument is checked before the first run
SPARSESVM="$tmp/fake" bash "$tmp/repo/scripts/regenerate_reference.sh" tiny.yaml tiny.yaml:tiny_typo >"$tmp/out" 2>&1
code=$?
[[ $code -eq 1 && ! -e "$tmp/ran" ]] || fail "a bad second argument: exit $code, or the first argument ran"

echo "$((20 - failures)) passed, $failures failed"
((failures == 0))
