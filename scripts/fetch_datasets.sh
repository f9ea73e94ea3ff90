#!/usr/bin/env bash
# Downloads the data sets that no Debian package ships into datasets/raw/, on a machine with network.
# Each file is checked against datasets/raw/CHECKSUMS.sha256 when it has an entry there; a file with
# no entry yet is recorded (trust on first use) and the script says so, so that the next fetch, on any
# machine, is verified. Nothing here runs at build or test time.
# Usage: scripts/fetch_datasets.sh [NAME ...]     (default: all; names: bupa cleveland arcene gisette)
# NOTE: written without network access; the download path has not been exercised yet.
set -euo pipefail
cd "$(dirname "$0")/.."
raw=datasets/raw
mkdir -p "$raw"
uci=https://archive.ics.uci.edu/ml/machine-learning-databases

declare -A files=(
  [bupa]="$uci/liver-disorders/bupa.data"
  [cleveland]="$uci/heart-disease/processed.cleveland.data"
  [arcene]="$uci/arcene/ARCENE/arcene_train.data $uci/arcene/ARCENE/arcene_train.labels $uci/arcene/ARCENE/arcene_valid.data $uci/arcene/arcene_valid.labels"
  [gisette]="$uci/gisette/GISETTE/gisette_train.data $uci/gisette/GISETTE/gisette_train.labels $uci/gisette/GISETTE/gisette_valid.data $uci/gisette/gisette_valid.labels"
)

names=("$@")
((${#names[@]})) || names=(bupa cleveland arcene gisette)
touch "$raw/CHECKSUMS.sha256"
for name in "${names[@]}"; do
  [[ -n "${files[$name]:-}" ]] || { echo "fetch: unknown data set '$name' (known: ${!files[*]})" >&2; exit 1; }
  for url in ${files[$name]}; do
    file=$(basename "$url")
    echo "fetch: $name: $url"
    curl --fail --location --silent --show-error -o "$raw/$file.part" "$url"
    actual=$(sha256sum "$raw/$file.part" | cut -d' ' -f1)
    expected=$(awk -v f="$file" '$2 == f {print $1}' "$raw/CHECKSUMS.sha256")
    if [[ -z "$expected" ]]; then
      echo "$actual  $file" >>"$raw/CHECKSUMS.sha256"
      echo "fetch: $file: no recorded checksum; recorded $actual (commit datasets/raw/CHECKSUMS.sha256)"
    elif [[ "$expected" != "$actual" ]]; then
      rm -f "$raw/$file.part"
      echo "fetch: $file: SHA-256 $actual does not match the recorded $expected" >&2
      exit 1
    fi
    mv "$raw/$file.part" "$raw/$file"
  done
done
