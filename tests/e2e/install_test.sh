#!/usr/bin/env bash
# The installed tree and the Debian package work away from the source tree (issue 40):
#  1. `cmake --install` into a temporary prefix; from another directory the installed program runs the
#     installed quickstart config and draws its figures with the installed plot.py (plot.log names it);
#  2. examples/fit_file, as installed, builds against find_package(sparsesvm) and fits a shipped file;
#  3. `cpack -G DEB` builds the package; its declared dependencies name the runtime libraries and
#     matplotlib; unpacked into a staging directory (no root), it runs the quickstart with its own plot.py.
# Usage: tests/e2e/install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'echo "install_test: line $LINENO: a command failed (exit $?)" >&2' ERR
fail() { echo "install_test: $*" >&2; exit 1; }

# Runs the quickstart of the tree whose share folder is $2 with the program $1, from an empty directory;
# checks that the figures were drawn by that tree's plot.py.
quickstart_from_elsewhere() {
  local program=$1 share=$2 out=$3
  mkdir -p "$tmp/elsewhere"
  (cd "$tmp/elsewhere" && "$program" run "$share/configs/quickstart.yaml" -q --out "$out") ||
    fail "$program run $share/configs/quickstart.yaml exited $?"
  [[ -s "$out/table_accuracy.csv" ]] || fail "$out: no table_accuracy.csv"
  grep -q "running .* $share/scripts/plot.py " "$out/plot.log" ||
    fail "$out: figures not drawn by $share/scripts/plot.py: $(head -3 "$out/plot.log" 2>/dev/null)"
  ls "$out"/*.png >/dev/null 2>&1 || fail "$out: no figures: $(tail -2 "$out/plot.log")"
  [[ -s "$out/index.html" ]] || fail "$out: no index.html"
}

# 1. The installed tree.
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || fail "cmake --install exited $?"
for file in bin/sparsesvm share/sparsesvm/scripts/plot.py share/sparsesvm/configs/quickstart.yaml \
            share/sparsesvm/datasets/sonar.csv lib/cmake/sparsesvm/sparsesvmConfig.cmake include/sparsesvm/models/methods.hpp; do
  [[ -e "$tmp/prefix/$file" ]] || fail "the installed tree has no $file"
done
quickstart_from_elsewhere "$tmp/prefix/bin/sparsesvm" "$tmp/prefix/share/sparsesvm" "$tmp/installed_run"
# A paper's config finds its shipped data (datasets/ above configs/) from any directory.
# (Outputs go to files: grep -q stopping early would break the pipe under pipefail.)
(cd "$tmp/elsewhere" && "$tmp/prefix/bin/sparsesvm" run "$tmp/prefix/share/sparsesvm/configs/ong2010/uci.yaml" --dry-run \
  --skip-missing --out "$tmp/uci" >"$tmp/uci.plan" 2>/dev/null) || fail "dry-run of the installed ong2010/uci.yaml exited $?"
grep -q "^  sonar  *160 tasks" "$tmp/uci.plan" || fail "ong2010/uci.yaml, installed, misses sonar: $(cat "$tmp/uci.plan")"
(cd "$tmp/elsewhere" && "$tmp/prefix/bin/sparsesvm" list >"$tmp/list") || fail "list exited $?"
grep -q "$tmp/prefix/share/sparsesvm/configs/quickstart.yaml" "$tmp/list" ||
  fail "list, run outside a checkout, does not show the installed configs"

# 2. A C++ consumer of the installed package. Not in the sanitizer job (SPARSESVM_SANITIZED=1): its static
# libraries are instrumented and would need clang's sanitizer runtimes in the consumer; the plain job builds it.
if [[ "${SPARSESVM_SANITIZED:-0}" != 1 ]]; then
  cmake -S "$tmp/prefix/share/sparsesvm/examples/fit_file" -B "$tmp/example" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    >"$tmp/example.log" 2>&1 || fail "configuring examples/fit_file against the installed tree: $(tail -5 "$tmp/example.log")"
  cmake --build "$tmp/example" >>"$tmp/example.log" 2>&1 || fail "building examples/fit_file: $(tail -5 "$tmp/example.log")"
  "$tmp/example/fit_file" "$tmp/prefix/share/sparsesvm/datasets/sonar.csv" OneNormSVM 1 >"$tmp/fit.out" ||
    fail "fit_file exited $?"
  grep -q "OneNormSVM on sonar (n = 208, d = 60): status optimal" "$tmp/fit.out" || fail "fit_file printed: $(cat "$tmp/fit.out")"
fi

# 3. The Debian package, unpacked where no root is needed.
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/package" >"$tmp/cpack.log" 2>&1 ||
  fail "cpack -G DEB: $(tail -5 "$tmp/cpack.log")"
deb=$(ls "$tmp"/package/sparsesvm_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for package in python3-matplotlib coinor-libclp1 coinor-libcbc3 libyaml-cpp0.7; do
  [[ "$depends" == *"$package"* ]] || fail "the package does not depend on $package: $depends"
done
dpkg-deb -x "$deb" "$tmp/staging"
quickstart_from_elsewhere "$tmp/staging/usr/bin/sparsesvm" "$tmp/staging/usr/share/sparsesvm" "$tmp/package_run"
consumer=$([[ "${SPARSESVM_SANITIZED:-0}" == 1 ]] && echo "find_package consumer skipped (sanitizer build)" || echo "find_package consumer")
echo "install_test: installed tree, $consumer and Debian package: passed"
