#!/usr/bin/env bash
# Downloads the data sets that no Debian package ships into datasets/raw/, on a machine with network.
# Each file is checked against CHECKSUMS.sha256 in that folder when it has an entry there; a file with
# no entry yet is recorded (trust on first use) and the script says so, so that the next fetch, on any
# machine, is verified. A file already present is checked, not downloaded again. A download that fails,
# stops short or does not match its checksum is removed and the script exits 1. The files are used as
# they come: the configs read them with loader options (bupa, cleveland) or as NIPS 2003 parts (arcene,
# gisette). rcv1 is RCV1-v2 as Lewis et al. (JMLR 2004) publish it: the LYRL2004 training vectors (23,149
# documents), the first of the four test parts (199,328, the size [RW] Table 2 reports) and the topic
# assignments; from them the script writes rcv1_ccat.libsvm, label 1 for a document in CCAT and -1 for
# the rest, the training documents first (configs/walk/reuters.yaml splits there: protocol.outer given).
# Nothing here runs at build or test time; tests/e2e/fetch_test.sh runs it against a server on 127.0.0.1.
# Usage: scripts/fetch_datasets.sh [NAME ...]     (default: all; names: bupa cleveland arcene gisette rcv1)
#   SPARSESVM_FETCH_BASE       the UCI archive's base URL (default: the UCI repository's)
#   SPARSESVM_FETCH_RCV1_BASE  the LYRL2004 appendices' base URL (default: JMLR's page of the paper)
#   SPARSESVM_RAW_DIR          where the files go (default: datasets/raw of this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
raw=${SPARSESVM_RAW_DIR:-datasets/raw}
uci_base=${SPARSESVM_FETCH_BASE:-https://archive.ics.uci.edu/ml/machine-learning-databases}
rcv1_base=${SPARSESVM_FETCH_RCV1_BASE:-https://www.jmlr.org/papers/volume5/lewis04a}
mkdir -p "$raw"

declare -A files=(
  [bupa]="liver-disorders/bupa.data"
  [cleveland]="heart-disease/processed.cleveland.data"
  [arcene]="arcene/ARCENE/arcene_train.data arcene/ARCENE/arcene_train.labels arcene/ARCENE/arcene_valid.data arcene/arcene_valid.labels"
  [gisette]="gisette/GISETTE/gisette_train.data gisette/GISETTE/gisette_train.labels gisette/GISETTE/gisette_valid.data gisette/gisette_valid.labels"
  [rcv1]="a13-vector-files/lyrl2004_vectors_train.dat.gz a13-vector-files/lyrl2004_vectors_test_pt0.dat.gz a08-topic-qrels/rcv1-v2.topics.qrels.gz"
)

# rcv1_ccat.libsvm from the verified LYRL2004 files: each vector line is "docid  feature:value ..." (the
# features sorted, 1-based), each topic line "TOPIC docid 1"; the label replaces the docid (blank lines
# are skipped). The training documents come first: configs/walk/reuters.yaml trains on the first 23149.
write_rcv1_ccat() {
  local out=$raw/rcv1_ccat.libsvm train_count
  if [[ -f "$out" ]]; then echo "fetch: rcv1: rcv1_ccat.libsvm present; skipped"; return; fi
  rcv1_failed() {
    rm -f "$out.ccat" "$out.part"
    echo "fetch: rcv1: $1; rcv1_ccat.libsvm not written" >&2
    exit 1
  }
  zcat "$raw/rcv1-v2.topics.qrels.gz" | awk '$1 == "CCAT" {print $2}' >"$out.ccat" ||
    rcv1_failed "rcv1-v2.topics.qrels.gz could not be read (above)"
  [[ -s "$out.ccat" ]] || rcv1_failed "rcv1-v2.topics.qrels.gz names no document in CCAT"
  # The ids file's path goes through ENVIRON (awk -v would read backslashes in it as escapes).
  zcat "$raw/lyrl2004_vectors_train.dat.gz" "$raw/lyrl2004_vectors_test_pt0.dat.gz" |
    CCAT_IDS=$out.ccat awk 'BEGIN { while ((status = (getline id < ENVIRON["CCAT_IDS"])) > 0) ccat[id] = 1
                                    if (status < 0) exit 2 }
                            NF > 0 { $1 = ($1 in ccat) ? 1 : -1; print }' >"$out.part" ||
    rcv1_failed "the vectors could not be read or labelled (above)"
  train_count=$(zcat "$raw/lyrl2004_vectors_train.dat.gz" | awk 'NF > 0' | wc -l)
  rm -f "$out.ccat"
  mv "$out.part" "$out"
  echo "fetch: rcv1: wrote rcv1_ccat.libsvm ($(wc -l <"$out") documents, the first $train_count for training;" \
       "$(grep -c '^1 ' "$out") in CCAT against the rest)"
  if [[ "$train_count" != 23149 ]]; then
    echo "fetch: rcv1: warning: LYRL2004's training part has 23149 documents, this one $train_count;" \
         "configs/walk/reuters.yaml's given split (protocol.outer.train) assumes 23149" >&2
  fi
}

checksums="$raw/CHECKSUMS.sha256"
touch "$checksums"
recorded() { awk -v f="$1" '$2 == f {print $1}' "$checksums"; }

# Checks $raw/$file.part against the recorded checksum (recording it when there is none) and moves it
# into place; on a mismatch removes it and exits 1.
accept() {
  local file=$1 actual expected
  # A gzip file that does not decompress is a damaged download: refused before its checksum is recorded.
  if [[ "$file" == *.gz ]] && ! gzip -t "$raw/$file.part" 2>/dev/null; then
    rm -f "$raw/$file.part"
    echo "fetch: $file: not a complete gzip file (a damaged or cut download); removed, nothing recorded" >&2
    exit 1
  fi
  actual=$(sha256sum "$raw/$file.part" | cut -d' ' -f1)
  expected=$(recorded "$file")
  if [[ -z "$expected" ]]; then
    echo "$actual  $file" >>"$checksums"
    echo "fetch: $file: no recorded checksum; recorded $actual (commit $checksums)"
  elif [[ "$expected" != "$actual" ]]; then
    rm -f "$raw/$file.part"
    echo "fetch: $file: SHA-256 $actual does not match the recorded $expected; removed (a damaged or changed download)" >&2
    exit 1
  fi
  mv "$raw/$file.part" "$raw/$file"
}

names=("$@")
((${#names[@]})) || names=(bupa cleveland arcene gisette rcv1)
for name in "${names[@]}"; do
  [[ -n "${files[$name]:-}" ]] || { echo "fetch: unknown data set '$name' (known: ${!files[*]})" >&2; exit 1; }
done
for name in "${names[@]}"; do
  base=$uci_base
  [[ "$name" != rcv1 ]] || base=$rcv1_base
  for path in ${files[$name]}; do
    file=$(basename "$path")
    if [[ -f "$raw/$file" ]]; then
      expected=$(recorded "$file")
      if [[ -n "$expected" && "$(sha256sum "$raw/$file" | cut -d' ' -f1)" != "$expected" ]]; then
        echo "fetch: $raw/$file is present but does not match its recorded checksum; delete it to fetch it again" >&2
        exit 1
      fi
      if [[ "$file" == *.gz ]] && ! gzip -t "$raw/$file" 2>/dev/null; then
        echo "fetch: $raw/$file is present but not a complete gzip file; delete it and its line in $checksums to fetch it again" >&2
        exit 1
      fi
      echo "fetch: $name: $file present; skipped"
      continue
    fi
    echo "fetch: $name: $base/$path"
    if ! curl --fail --location --silent --show-error -o "$raw/$file.part" "$base/$path"; then
      rm -f "$raw/$file.part"
      echo "fetch: $file: download failed (above); nothing kept" >&2
      exit 1
    fi
    accept "$file"
  done
  [[ "$name" != rcv1 ]] || write_rcv1_ccat
done
