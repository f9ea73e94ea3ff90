#!/usr/bin/env bash
# CI job: the build and the tests as an unprivileged user with the dependencies already present, as on
# a cluster without root: plain CMake (no apt-get, no sudo: both are stand-ins here that fail if called),
# in a copy of the committed tree (git archive HEAD) owned by that user. As root it creates the user sparsesvm-ci; as any other
# user it builds as that user. Usage: tests/unprivileged/build_test.sh   (after scripts/test.sh installed
# the dependencies)
set -euo pipefail
cd "$(dirname "$0")/../.."
source_dir=$(pwd)
work=$(mktemp -d /tmp/sparsesvm-unprivileged.XXXXXX)
trap 'rm -rf "$work"' EXIT
user=$(id -un)
if ((EUID == 0)); then
  user=sparsesvm-ci
  id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
fi
# The committed tree (what a clone has), and stand-ins for apt-get and sudo that fail loudly.
mkdir "$work/src"
git -C "$source_dir" archive HEAD | tar -x -C "$work/src"
# The user's own temporary folder: files an earlier (root) test run left in /tmp under the same names
# (the unit tests name theirs by process id) would not be writable.
mkdir -p "$work/bin" "$work/tmp"
for tool in apt-get apt sudo; do
  printf '#!/bin/sh\necho "unprivileged build called %s" >&2\nexit 1\n' "$tool" >"$work/bin/$tool"
  chmod +x "$work/bin/$tool"
done
chown -R "$user" "$work"
steps='set -euo pipefail
cd "$1/src"
cmake -S . -B build-user -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-user -j "$(nproc)" >/dev/null
ctest --test-dir build-user -j "$(nproc)" --output-on-failure'
if ((EUID == 0)); then
  runuser -u "$user" -- env PATH="$work/bin:/usr/local/bin:/usr/bin:/bin" HOME="/home/$user" TMPDIR="$work/tmp" \
    bash -c "$steps" _ "$work"
else
  env PATH="$work/bin:$PATH" TMPDIR="$work/tmp" bash -c "$steps" _ "$work"
fi
echo "unprivileged build and tests: passed (as $user)"
