#!/usr/bin/env bash
# The README's second command (and what CI runs): set up, build with warnings as errors, run all tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --strict
ctest --test-dir build --output-on-failure -j "$(nproc)"
