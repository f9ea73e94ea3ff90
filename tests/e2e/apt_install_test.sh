#!/usr/bin/env bash
# CI job (root): the Debian package as a user installs it. Builds it with cpack from BUILD_DIR, installs it
# with `apt-get install ./sparsesvm_*.deb` (its dependencies from Debian), runs the quickstart from an empty
# directory with /usr/bin/sparsesvm and the installed config, figures included, and removes the package.
# Usage: tests/e2e/apt_install_test.sh BUILD_DIR
set -euo pipefail
((EUID == 0)) || { echo "apt_install_test: needs root (apt-get install)" >&2; exit 1; }
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'apt-get remove -y -q sparsesvm >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
fail() { echo "apt_install_test: $*" >&2; exit 1; }
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp" >/dev/null || fail "cpack -G DEB exited $?"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$(ls "$tmp"/sparsesvm_*.deb)" >"$tmp/apt.log" 2>&1 ||
  fail "apt-get install: $(tail -5 "$tmp/apt.log")"
mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere"
sparsesvm run /usr/share/sparsesvm/configs/quickstart.yaml -q --out "$tmp/run" || fail "sparsesvm run exited $?"
grep -q "running .* /usr/share/sparsesvm/scripts/plot.py " "$tmp/run/plot.log" || fail "figures: $(head -3 "$tmp/run/plot.log")"
[[ -s "$tmp/run/index.html" ]] && ls "$tmp"/run/*.png >/dev/null || fail "no figures in $tmp/run"
echo "apt_install_test: apt-get install ./sparsesvm_*.deb, then the quickstart from $tmp/elsewhere: passed"
