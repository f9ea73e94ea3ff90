#!/usr/bin/env bash
# Times the full ong2010/uci protocol (20 repetitions, 5-fold CV over 9 lambdas, 8 methods) on the data
# sets present, with -j 2, and reports wall time, fits per second and where the time goes per method.
# Usage: bench/run_uci.sh [CONFIG] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-configs/ong2010/uci.yaml}
jobs=${2:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
./build/sparsesvm run "$config" -j "$jobs" -q --skip-missing --out "$out"
end=$(date +%s.%N)
python3 - "$out/results.csv" "$start" "$end" "$jobs" <<'PYTHON'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
wall = float(sys.argv[3]) - float(sys.argv[2])
fits = sum(int(r["fits"]) for r in rows)
print(f"{len(rows)} tasks, {fits} fits in {wall:.1f} s wall with -j {sys.argv[4]}: {fits / wall:.0f} fits/s")
by_method = collections.defaultdict(lambda: [0.0, 0])
for r in rows:
    by_method[r["method"]][0] += float(r["task_time_s"])
    by_method[r["method"]][1] += int(r["fits"])
total = sum(t for t, _ in by_method.values())
for method, (seconds, n) in sorted(by_method.items(), key=lambda item: -item[1][0]):
    print(f"  {method:<14} {seconds:7.1f} s task time ({100 * seconds / total:4.1f}%), {n} fits, {1000 * seconds / n:.2f} ms/fit")
PYTHON
