#!/usr/bin/env bash
# scripts/fetch_datasets.sh against a web server on 127.0.0.1 serving small files in each source's
# original format, made here: checksums verified (and recorded on first use), a rerun skipping what is
# present, a corrupted, truncated or absent download refused with nothing kept, a damaged local file
# refused, every fetched set read by the loader with its config's options, and RCV1's LYRL2004 files
# turned into rcv1_ccat.libsvm (CCAT against the rest, training documents first) that
# configs/walk/reuters.yaml runs on (its given split).
# Usage: fetch_test.sh PATH/TO/sparsesvm REPO_ROOT
set -uo pipefail
bin=$1
root=$2
fetch=$root/scripts/fetch_datasets.sh
tmp=$(mktemp -d)
server=
trap '[[ -n "$server" ]] && kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The archive's layout (as the script's URLs give it), with fixtures in the original formats: bupa's 7
# comma-separated columns with the selector last; cleveland's 14 with '?' and classes 0-4; NIPS 2003
# parts (space-separated rows, one label per line).
www=$tmp/www
mkdir -p "$www/liver-disorders" "$www/heart-disease" "$www/arcene/ARCENE" "$www/gisette/GISETTE"
printf '85,92,45,27,31,0.0,1\n85,64,59,32,23,0.0,2\n86,54,33,16,54,0.0,2\n91,78,34,24,36,0.0,1\n87,70,12,28,10,0.0,2\n' \
  >"$www/liver-disorders/bupa.data"
printf '63.0,1.0,1.0,145.0,233.0,1.0,2.0,150.0,0.0,2.3,3.0,0.0,6.0,0\n67.0,1.0,4.0,160.0,286.0,0.0,2.0,108.0,1.0,1.5,2.0,3.0,3.0,2\n67.0,1.0,4.0,120.0,229.0,0.0,2.0,129.0,1.0,2.6,2.0,2.0,7.0,1\n37.0,1.0,3.0,130.0,250.0,0.0,0.0,187.0,0.0,3.5,3.0,0.0,3.0,0\n41.0,0.0,2.0,130.0,204.0,0.0,2.0,172.0,0.0,1.4,1.0,?,3.0,0\n' \
  >"$www/heart-disease/processed.cleveland.data"
for set in arcene gisette; do
  printf '1 0 3 0 5 \n0 2 0 4 0 \n3 3 0 0 1 \n' >"$www/$set/${set^^}/${set}_train.data"
  printf '1\n-1\n1\n' >"$www/$set/${set^^}/${set}_train.labels"
  printf '0 1 0 2 2 \n4 0 1 0 0 \n' >"$www/$set/${set^^}/${set}_valid.data"
  printf -- '-1\n1\n' >"$www/$set/${set}_valid.labels"
done

# RCV1-v2 as LYRL2004 publishes it (gzip): "docid  feature:value ..." vectors, "TOPIC docid 1" topics;
# CCAT holds documents 2286, 2288 (training) and 2290 (test); a blank line is skipped.
mkdir -p "$www/lyrl/a13-vector-files" "$www/lyrl/a08-topic-qrels"
printf '2286  1:0.5 3:0.8660254037844386\n2287  2:1\n\n2288  1:0.6 2:0.8\n2289  4:1\n' |
  gzip -n >"$www/lyrl/a13-vector-files/lyrl2004_vectors_train.dat.gz"
printf '2290  1:1\n2291  4:0.6 5:0.8\n' | gzip -n >"$www/lyrl/a13-vector-files/lyrl2004_vectors_test_pt0.dat.gz"
printf 'CCAT 2286 1\nC15 2286 1\nGCAT 2287 1\nCCAT 2288 1\nE11 2289 1\nCCAT 2290 1\nM14 2291 1\n' |
  gzip -n >"$www/lyrl/a08-topic-qrels/rcv1-v2.topics.qrels.gz"

/usr/bin/python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$www" >"$tmp/server.log" 2>&1 &
server=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$tmp/server.log" | head -1)
  [[ -n "$port" ]] && break
  sleep 0.05
done
[[ -n "$port" ]] || { echo "FAIL: the test's web server did not start: $(cat "$tmp/server.log")"; exit 1; }
export SPARSESVM_FETCH_BASE=http://127.0.0.1:$port SPARSESVM_FETCH_RCV1_BASE=http://127.0.0.1:$port/lyrl SPARSESVM_RAW_DIR=$tmp/raw
mkdir -p "$tmp/raw"
# bupa's checksum is recorded beforehand (the verified path); the others are recorded on first use.
echo "$(sha256sum "$www/liver-disorders/bupa.data" | cut -d' ' -f1)  bupa.data" >"$tmp/raw/CHECKSUMS.sha256"

out=$(bash "$fetch" bupa cleveland arcene 2>&1) || fail "fetch exited $?: $out"
for file in bupa.data processed.cleveland.data arcene_train.data arcene_train.labels arcene_valid.data arcene_valid.labels; do
  [[ -f "$tmp/raw/$file" ]] || fail "$file was not fetched"
  grep -q "  $file\$" "$tmp/raw/CHECKSUMS.sha256" || fail "$file has no recorded checksum"
done
[[ $(grep -c "no recorded checksum; recorded" <<<"$out") -eq 5 ]] || fail "first-use records: $out"
[[ -z "$(ls "$tmp/raw" | grep '\.part$')" ]] || fail "partial files left: $(ls "$tmp/raw")"

# A rerun downloads nothing.
out=$(bash "$fetch" bupa cleveland arcene 2>&1) || fail "rerun exited $?: $out"
[[ $(grep -c "present; skipped" <<<"$out") -eq 6 ]] || fail "rerun: $out"

# A corrupted download (the server's file changed since its checksum was recorded), a truncated one and
# an absent one: exit 1, nothing kept.
cp "$www/gisette/GISETTE/gisette_train.data" "$tmp/original"
echo "$(sha256sum "$tmp/original" | cut -d' ' -f1)  gisette_train.data" >>"$tmp/raw/CHECKSUMS.sha256"
printf '9 9 9 9 9 \n' >>"$www/gisette/GISETTE/gisette_train.data"
nothing_kept() { [[ -z "$(ls "$tmp/raw" | grep 'gisette_train.data')" ]] || fail "$1: kept $(ls "$tmp/raw" | grep gisette)"; }
out=$(bash "$fetch" gisette 2>&1) && fail "a corrupted download was accepted"
grep -q "gisette_train.data: SHA-256 .* does not match the recorded" <<<"$out" || fail "corrupted download: $out"
nothing_kept "a corrupted download"
head -c 10 "$tmp/original" >"$www/gisette/GISETTE/gisette_train.data"
out=$(bash "$fetch" gisette 2>&1) && fail "a truncated download was accepted"
grep -q "does not match the recorded" <<<"$out" || fail "truncated download: $out"
nothing_kept "a truncated download"
rm "$www/gisette/GISETTE/gisette_train.data"
out=$(bash "$fetch" gisette 2>&1) && fail "an absent file was accepted"
grep -q "gisette_train.data: download failed" <<<"$out" || fail "absent download: $out"
nothing_kept "an absent download"
out=$(bash "$fetch" gisete 2>&1) && fail "an unknown name was accepted"
grep -q "unknown data set 'gisete'" <<<"$out" || fail "unknown name: $out"

# A damaged local file is refused, not silently kept.
echo "1,2" >>"$tmp/raw/bupa.data"
out=$(bash "$fetch" bupa 2>&1) && fail "a damaged local file was accepted"
grep -q "bupa.data is present but does not match its recorded checksum" <<<"$out" || fail "damaged local file: $out"
cp "$www/liver-disorders/bupa.data" "$tmp/raw/bupa.data"

# Each set reads with its config's loader options (configs/bradley1998/uci.yaml, configs/ong2010/large.yaml).
"$bin" describe-data "$tmp/raw/bupa.data" -o label_column=6 -o positive=1 -o negative=2 >"$tmp/bupa" ||
  fail "bupa does not load: $(cat "$tmp/bupa")"
grep -q "examples  5 (+1: 2, -1: 3)" "$tmp/bupa" || fail "bupa: $(head -4 "$tmp/bupa")"
"$bin" describe-data "$tmp/raw/processed.cleveland.data" -o missing=drop_row -o threshold=0 >"$tmp/cleveland" ||
  fail "cleveland does not load: $(cat "$tmp/cleveland")"
grep -q "examples  4 (+1: 2, -1: 2)" "$tmp/cleveland" || fail "cleveland: $(head -4 "$tmp/cleveland")"
"$bin" describe-data "$tmp/raw/arcene" -f nips2003 >"$tmp/arcene" || fail "arcene does not load: $(cat "$tmp/arcene")"
grep -q "examples  5 (+1: 3, -1: 2)" "$tmp/arcene" || fail "arcene: $(head -4 "$tmp/arcene")"
# RCV1: the three files verified and recorded, rcv1_ccat.libsvm written once (a rerun skips it), labels
# by CCAT in the vectors' order, and configs/walk/reuters.yaml's given split over it (the first 4 train).
out=$(bash "$fetch" rcv1 2>&1) || fail "rcv1: exit $?: $out"
for file in lyrl2004_vectors_train.dat.gz lyrl2004_vectors_test_pt0.dat.gz rcv1-v2.topics.qrels.gz; do
  grep -q "  $file\$" "$tmp/raw/CHECKSUMS.sha256" || fail "rcv1: $file has no recorded checksum"
done
expected=$'1 1:0.5 3:0.8660254037844386\n-1 2:1\n1 1:0.6 2:0.8\n-1 4:1\n1 1:1\n-1 4:0.6 5:0.8'
[[ "$(cat "$tmp/raw/rcv1_ccat.libsvm" 2>/dev/null)" == "$expected" ]] ||
  fail "rcv1_ccat.libsvm: $(cat "$tmp/raw/rcv1_ccat.libsvm" 2>&1)"
grep -q "wrote rcv1_ccat.libsvm (6 documents, the first 4 for training; 3 in CCAT" <<<"$out" || fail "rcv1: $out"
grep -q "warning: LYRL2004's training part has 23149 documents, this one 4" <<<"$out" || fail "rcv1 count warning: $out"
out=$(bash "$fetch" rcv1 2>&1) || fail "rcv1 rerun: exit $?: $out"
grep -q "rcv1_ccat.libsvm present; skipped" <<<"$out" || fail "rcv1 rerun: $out"
"$bin" run "$root/configs/walk/reuters.yaml" "datasets.0.file=$tmp/raw/rcv1_ccat.libsvm" protocol.outer.train=4 \
  protocol.inner.folds=2 "grid.C=[1]" -j 1 -q --out "$tmp/reuters" >"$tmp/reuters.log" 2>&1 ||
  fail "configs/walk/reuters.yaml on the fetched file: $(tail -3 "$tmp/reuters.log")"
rows=$(tail -n +2 "$tmp/reuters/results.csv" 2>/dev/null | wc -l)
[[ "$rows" -eq 6 ]] || fail "configs/walk/reuters.yaml: $rows rows, expected 6 (one per method)"

# A cut gzip download is refused before its checksum is recorded; topics without CCAT write nothing.
mkdir -p "$www/cut/a13-vector-files" "$www/cut/a08-topic-qrels"
head -c 30 "$www/lyrl/a13-vector-files/lyrl2004_vectors_train.dat.gz" >"$www/cut/a13-vector-files/lyrl2004_vectors_train.dat.gz"
mkdir -p "$tmp/raw_cut"
out=$(SPARSESVM_FETCH_RCV1_BASE=http://127.0.0.1:$port/cut SPARSESVM_RAW_DIR=$tmp/raw_cut bash "$fetch" rcv1 2>&1) &&
  fail "a cut gzip download was accepted"
grep -q "lyrl2004_vectors_train.dat.gz: not a complete gzip file" <<<"$out" || fail "cut gzip: $out"
[[ -z "$(ls "$tmp/raw_cut" | grep lyrl)" ]] || fail "cut gzip: kept $(ls "$tmp/raw_cut")"
! grep -q lyrl "$tmp/raw_cut/CHECKSUMS.sha256" || fail "cut gzip: its checksum was recorded"
mkdir -p "$tmp/raw_noccat"
cp "$tmp/raw"/lyrl2004_vectors_*.dat.gz "$tmp/raw_noccat/"
printf 'GCAT 2287 1\n' | gzip -n >"$tmp/raw_noccat/rcv1-v2.topics.qrels.gz"
out=$(SPARSESVM_RAW_DIR=$tmp/raw_noccat bash "$fetch" rcv1 2>&1) && fail "topics without CCAT were accepted"
grep -q "names no document in CCAT; rcv1_ccat.libsvm not written" <<<"$out" || fail "no CCAT: $out"
[[ -z "$(ls "$tmp/raw_noccat" | grep rcv1_ccat)" ]] || fail "no CCAT: kept $(ls "$tmp/raw_noccat")"

((failures == 0)) && echo "fetch_test: all passed"
exit $((failures > 0))
