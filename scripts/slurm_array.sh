#!/usr/bin/env bash
# Submits CONFIG as a Slurm job array of N shards writing into DIR (on a shared file system), plus one
# job that, once every shard has ended, runs status (failing with the list of shards that still have
# work) and then collects the tables.
# Usage: scripts/slurm_array.sh CONFIG N [DIR] [-- extra sbatch options]
# Extra flags for `sparsesvm run` (e.g. --skip-missing, overrides) go in the RUN_ARGS environment variable.
set -euo pipefail
config=${1:?usage: slurm_array.sh CONFIG N [DIR]}
shards=${2:?usage: slurm_array.sh CONFIG N [DIR]}
dir=${3:-results/$(basename "$config" .yaml)}
shift $(( $# >= 3 ? 3 : $# ))
[[ "${1:-}" == "--" ]] && shift
bin=$(cd "$(dirname "$0")/.." && pwd)/build/sparsesvm
mkdir -p "$dir/slurm"
array=$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=1 --output="$dir/slurm/%A_%a.out" "$@" \
  --wrap="$bin run $config --shard \${SLURM_ARRAY_TASK_ID}/$shards --out $dir -j 1 -q ${RUN_ARGS:-}")
sbatch --dependency=afterany:"$array" --output="$dir/slurm/collect.out" "$@" \
  --wrap="$bin status $dir --shards $shards && $bin collect $dir"
echo "submitted array $array ($shards shards) into $dir"
