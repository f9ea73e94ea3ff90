#!/usr/bin/env bash
# Submits a config as a Slurm job array: job i runs `sparsesvm run CONFIG --shard i/N` into one run
# directory on a shared file system, and a collect job that starts once every shard has succeeded runs
# `status` (its output in the collect log) and then `collect`.
#
# Usage: scripts/slurm_array.sh [OPTIONS] CONFIG [OVERRIDES...] [-- SBATCH OPTIONS...]
#   --shards N          array size (default 4); shards are whole groups balanced by data set size
#   --out DIR           run directory (default: run's own, results/<config name>)
#   -j J                threads per shard (sparsesvm run -j J, sbatch --cpus-per-task J; default 1)
#   --time T            sbatch --time for each shard (e.g. 02:00:00)
#   --mem M             sbatch --mem for each shard (e.g. 4G)
#   --partition P       sbatch --partition
#   --throttle K        at most K shards at once (--array=...%K)
#   --sweep NAME=V,...  passed to run (repeatable); so are --skip-missing and --force
#   --resubmit-missing  after a time limit or a node failure, submit only the shards that `status DIR
#                       --shards N` lists with tasks to run: missing, damaged, or refused for the memory
#                       budget, which is half the job's memory by default (give those a larger --mem M, or export
#                       SPARSESVM_MEMORY_BUDGET); otherwise the same options as the first submission
#   --dry-run           print the sbatch commands instead of running them
# SPARSESVM (default build/sparsesvm of this checkout) is the binary the jobs run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${SPARSESVM:-$root/build/sparsesvm}
usage() { sed -n '5,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
fail() { echo "slurm_array.sh: $*" >&2; exit 1; }

shards=4 out="" jobs=1 throttle="" resubmit=0 dry_run=0
run_flags=() sbatch_options=() positional=()
while (($#)); do
  case "$1" in
    --shards) shards=${2:?--shards needs a value}; shift 2 ;;
    --out) out=${2:?--out needs a value}; shift 2 ;;
    -j) jobs=${2:?-j needs a value}; shift 2 ;;
    --time) sbatch_options+=(--time="${2:?--time needs a value}"); shift 2 ;;
    --mem) sbatch_options+=(--mem="${2:?--mem needs a value}"); shift 2 ;;
    --partition) sbatch_options+=(--partition="${2:?--partition needs a value}"); shift 2 ;;
    --time=* | --mem=* | --partition=*) sbatch_options+=("$1"); shift ;;  # sbatch's own spelling
    --throttle) throttle=${2:?--throttle needs a value}; shift 2 ;;
    --sweep) run_flags+=(--sweep "${2:?--sweep needs a value}"); shift 2 ;;
    --skip-missing | --force) run_flags+=("$1"); shift ;;
    --resubmit-missing) resubmit=1; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h | --help) usage ;;
    --) shift; sbatch_options+=("$@"); break ;;
    -*) fail "unknown option '$1' (--help lists them)" ;;
    *) positional+=("$1"); shift ;;
  esac
done
((${#positional[@]} >= 1)) || usage
config=${positional[0]}
overrides=("${positional[@]:1}")
[[ "$shards" =~ ^[1-9][0-9]{0,5}$ ]] && ((shards <= 100000)) || fail "--shards: expected a whole number from 1 to 100000, found '$shards'"
[[ "$jobs" =~ ^[1-9][0-9]{0,2}$ ]] && ((jobs <= 256)) || fail "-j: expected a whole number from 1 to 256, found '$jobs'"
[[ -z "$throttle" || "$throttle" =~ ^[1-9][0-9]{0,5}$ ]] || fail "--throttle: expected a positive whole number, found '$throttle'"
[[ -x "$bin" ]] || fail "$bin: not built (bash scripts/setup.sh, or set SPARSESVM)"
bin=$(realpath "$bin")

# The config is checked here, before anything is queued (and a directory holding another config's run
# refused, unless --force), and run itself names the default directory.
out_flag=()
[[ -n "$out" ]] && out_flag=(--out "$out")
plan=$("$bin" run "$config" "${overrides[@]}" "${run_flags[@]}" "${out_flag[@]}" --dry-run) || exit 1
dir=$(sed -n 's/.*results would go to //p' <<<"$plan" | head -1)
[[ -n "$dir" ]] || fail "could not read the run directory from: $plan"
dir=$(realpath -m "$dir")
name=$(sed -n 's/^config \([^ ]*\) .*/\1/p' <<<"$plan" | head -1)

indices="0-$((shards - 1))"
if ((resubmit)); then
  [[ -f "$dir/config.yaml" ]] || fail "$dir holds no run yet: submit without --resubmit-missing first"
  indices=$("$bin" status "$dir" --shards "$shards" | sed -n "s/^shards of $shards with tasks to run ([^)]*): //p") || true
  [[ -n "$indices" ]] || fail "status of $dir did not list shards"
  if [[ "$indices" == none ]]; then
    echo "no shard of $dir has tasks to run; nothing to resubmit"
    exit 0
  fi
fi

# --wrap runs under /bin/sh: every word in POSIX single quotes (bash's printf %q may use $'...').
posix_quote() {
  local word out="" escaped="'\\''"
  for word in "$@"; do out+=" '${word//"'"/$escaped}'"; done
  printf '%s' "$out"
}
# Paths are absolute: the jobs may start in another directory.
config_path=$(realpath "$config")
quoted_run=$(posix_quote "$bin" run "$config_path" "${overrides[@]}" "${run_flags[@]}" --out "$dir" -j "$jobs" -q)
quoted_status=$(posix_quote "$bin" status "$dir" --shards "$shards")
quoted_collect=$(posix_quote "$bin" collect "$dir")
submit() {
  if ((dry_run)); then
    printf '%q ' sbatch "$@" >&2
    echo >&2
    echo "JOBID"
  else
    sbatch "$@"
  fi
}
created_log_dir=0
if ((!dry_run)) && [[ ! -d "$dir/slurm" ]]; then mkdir -p "$dir/slurm" && created_log_dir=1; fi
# A refused submission (a bad --time, say) leaves no empty log directory behind.
trap '((created_log_dir)) && rmdir "$dir/slurm" "$dir" 2>/dev/null' ERR
array=$(submit --parsable --job-name="sparsesvm-$name" --array="$indices${throttle:+%$throttle}" \
  --cpus-per-task="$jobs" --output="$dir/slurm/%A_%a.out" "${sbatch_options[@]}" \
  --wrap="$quoted_run --shard \${SLURM_ARRAY_TASK_ID}/$shards" | tail -1)
collect=$(submit --parsable --job-name="sparsesvm-$name-collect" --dependency="afterok:${array%%;*}" \
  --kill-on-invalid-dep=yes --output="$dir/slurm/collect_%j.out" "${sbatch_options[@]}" \
  --wrap="$quoted_status; $quoted_collect" | tail -1)
if ((dry_run)); then
  echo "dry run: would submit an array (shards $indices of $shards) and a collect job into $dir (commands above)"
else
  echo "submitted array ${array%%;*} (shards $indices of $shards) and collect job ${collect%%;*} into $dir"
fi
