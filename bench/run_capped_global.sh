#!/usr/bin/env bash
# Capped-l1's global optimum by one MILP (issue 38's benchmark): CapOneNormSVM-global (hinge + capped-l1)
# and RLSVMC1-global (ramp + capped-l1) at the shapes of configs/beyond/dca_global_gap.yaml (training
# subsamples of 40 examples of pima, ionosphere, wpbc and sonar, standardized, and of the DCA paper's
# Gaussians with 0 and 10 noise dimensions; lambda 0.1 and 1; REPS splits, 3 by default), each started
# from its DCA answer: time to a proven 1e-4 gap over the certificate's box (mip_closed) and nodes. No
# work limit; the wall clock stops a fit at TIME_LIMIT seconds (30 by default). With BEFORE=<an older sparsesvm
# binary> every shard (one data set and split: 4 fits) runs with both binaries, one after the other, so
# both see the same load (the older binary takes the limit as time_limit alone, as it knew no work limit).
# One CSV row per fit in bench/capped_global_results.csv; the summary table in
# bench/capped_global_results.txt.
# Usage: [BEFORE=/path/to/old/sparsesvm] [TIME_LIMIT=30] [REPS=3] bench/run_capped_global.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/before_after.sh
limit=${TIME_LIMIT:-30}
reps=${REPS:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
config() {  # label, extra method options: the config of one binary
  cat <<YAML
name: bench_capped_global
seed: 2026
datasets:
  - {name: pima, file: $PWD/datasets/pima.csv, transforms: [standardize]}
  - {name: ionosphere, file: $PWD/datasets/ionosphere.csv, transforms: [standardize]}
  - {name: wpbc, file: $PWD/datasets/wpbc.csv, loader: {missing: drop_row}, transforms: [standardize]}
  - {name: sonar, file: $PWD/datasets/sonar.csv, transforms: [standardize]}
  - name: gaussians
    generator: dca_gaussians
    params: {n: 140, seed: 1}
    grid: {noise_dims: [0, 10]}
methods:
  - {name: CapOneNormSVM-global, relative_gap: 1e-4, time_limit: $limit$2}
  - {name: RLSVMC1-global, relative_gap: 1e-4, time_limit: $limit$2}
sweep:
  lambda: [0.1, 1]
protocol:
  outer: {type: train_tune_test, train: 40, tune: 0, test: 100, repetitions: $reps}
tables:
  metrics: [objective]
YAML
}
for entry in "${binaries[@]}"; do
  label=${entry%%=*}
  extra=""
  if [[ $label == after ]]; then extra=", lp_iteration_limit: 0"; fi
  config "$label" "$extra" >"$scratch/$label.yaml"
done
shards=$((6 * reps))  # one data set (gaussians: one noise level) and split per shard
for ((shard = 0; shard < shards; shard++)); do
  for entry in "${binaries[@]}"; do
    label=${entry%%=*} binary=${entry#*=}
    "$binary" run "$scratch/$label.yaml" --shard "$shard/$shards" --out "$scratch/run_$label" -q --no-figures
  done
done
out=bench/capped_global_results.csv
echo "binary,method,dataset,lambda,rep,status,objective,relative_gap,nodes,seconds,proven" >"$out"
for entry in "${binaries[@]}"; do
  label=${entry%%=*} binary=${entry#*=}
  "$binary" collect "$scratch/run_$label" >/dev/null
  /usr/bin/python3 - "$scratch/run_$label/results.csv" "$label" >>"$out" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    data = row["dataset"] + (f" noise {row['condition_noise_dims']}" if row["condition_noise_dims"] else "")
    gap = row["mip_relative_gap"]
    proven = row["mip_closed"] == "1" and gap not in ("", "nan") and float(gap) <= 1e-4
    print(",".join([sys.argv[2], row["method"].split("_lambda")[0], data, row["lambda"], row["rep"], row["status"],
                    row["objective"], row["mip_relative_gap"], row["mip_nodes"], row["train_time_s"], str(int(proven))]))
PY
done
/usr/bin/python3 bench/mip_summary.py "$out" "$limit" | tee bench/capped_global_results.txt
