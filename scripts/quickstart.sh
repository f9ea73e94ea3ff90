#!/usr/bin/env bash
# The README's first command: set up, build, and run the default experiment.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Until the experiment runner exists (issue 4), the default run describes a generated set of the DCA
# paper and a bundled real set.
./build/sparsesvm describe-data --generator dca_gaussians:noise_dims=10,seed=1 --max-features 12
./build/sparsesvm describe-data datasets/sonar.csv --max-features 5
