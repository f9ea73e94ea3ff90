#!/usr/bin/env bash
# End-to-end checks of `sparsesvm run` and `collect`: identical rows for -j 1, -j 2 and two shards
# collected together; a run killed with SIGKILL and resumed gives the same rows as an uninterrupted one;
# bad configs exit non-zero naming the key.
# Usage: run_test.sh PATH/TO/sparsesvm REPO_ROOT
set -uo pipefail
bin=$1
root=$2
config=$root/tests/data/tiny_run.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# results.csv without the timing columns (train_time_s, task_time_s, objective_seconds_trace), which
# legitimately differ between runs.
rows() {
  python3 - "$1/results.csv" <<'PYTHON'
import csv, sys
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        for timing in ("train_time_s", "task_time_s", "objective_seconds_trace"):
            row.pop(timing)
        print(row)
PYTHON
}

"$bin" run "$config" -q -j 1 --out "$tmp/j1" || fail "run -j 1 exited $?"
"$bin" run "$config" -q -j 2 --out "$tmp/j2" || fail "run -j 2 exited $?"
[[ $(rows "$tmp/j1" | wc -l) -eq 48 ]] || fail "expected 48 rows, found $(rows "$tmp/j1" | wc -l)"
diff <(rows "$tmp/j1") <(rows "$tmp/j2") >/dev/null || fail "-j 1 and -j 2 rows differ"

"$bin" run "$config" -q --shard 0/2 --out "$tmp/s0" || fail "shard 0/2 exited $?"
"$bin" run "$config" -q --shard 1/2 --out "$tmp/s1" || fail "shard 1/2 exited $?"
# status: one shard alone has work left in the other; both together are complete.
out=$("$bin" status "$tmp/s0" --shards 2)
status=$?
((status == 4)) || fail "status of one shard exited $status, not 4"
grep -q "shards of 2 with tasks to run (missing, damaged, or refused for the memory budget): 1$" <<<"$out" || fail "status shard list: $out"
grep -q "total: 24 done, 24 missing, 0 without a solution, of 48 planned" <<<"$out" || fail "status totals: $out"
"$bin" status "$tmp/s0" "$tmp/s1" >/dev/null || fail "status of both shards exited $?"
# A row whose cv/ file is gone is work left, for status as for run (experiment::needs_run): shard 1 lists it,
# and a rerun of that shard computes it again (the rows compared with -j 1's below).
lost=$(find "$tmp/s1/cv" -name '*.csv' | sort | head -1)
rm -f "$lost"
out=$("$bin" status "$tmp/s0" "$tmp/s1" --shards 2)
grep -q "tasks to run (missing, damaged, or refused for the memory budget): 1$" <<<"$out" || fail "status with a lost cv/ file: $out"
grep -q "total: 47 done, 1 missing" <<<"$out" || fail "status totals with a lost cv/ file: $out"
grep -q "of the missing, 1 have a row but lack their cv/ or weights/ file" <<<"$out" || fail "status without the lost file's line: $out"
out=$("$bin" run "$config" --shard 1/2 --out "$tmp/s1" 2>&1)  # captured: grep -q on a pipe could end the run early
grep -q "1 tasks run, 23 already done" <<<"$out" || fail "rerun of shard 1 did not compute the task with a lost cv/ file: $out"
[[ -f $lost ]] || fail "rerun of shard 1 did not write $lost again"
"$bin" status "$tmp/s0" "$tmp/s1" --shards 2 >/dev/null || fail "status after the rerun exited $?"
# A damaged row is work left too, with its cv/ file lost (the row is not read) or not; a directory that
# does not exist is an error naming it.
task=$(basename "$lost")
printf 'a,"b\n' >"$tmp/s1/tasks/$task"
rm -f "$lost"
out=$("$bin" status "$tmp/s0" "$tmp/s1" --shards 2) ; status=$?
((status == 4)) && grep -q "total: 47 done, 1 missing" <<<"$out" || fail "status with a damaged row and a lost cv/ file ($status): $out"
out=$("$bin" run "$config" --shard 1/2 --out "$tmp/s1" 2>&1)
grep -q "1 tasks run, 23 already done" <<<"$out" || fail "rerun of shard 1 did not compute the damaged row without its cv/ file: $out"
for damage in 'a,"b\n' 'garbage\n'; do  # not CSV, and not a row: with the cv/ file present, computed again
  printf "$damage" >"$tmp/s1/tasks/$task"
  out=$("$bin" status "$tmp/s0" "$tmp/s1" --shards 2) ; status=$?
  ((status == 4)) && grep -q "memory budget): 1$" <<<"$out" || fail "status of a damaged row ($status): $out"
  grep -q "total: 47 done, 1 missing" <<<"$out" && grep -q "of the missing, 1 have a damaged row" <<<"$out" ||
    fail "status does not count a damaged row as missing: $out"
  out=$("$bin" run "$config" --shard 1/2 --out "$tmp/s1" 2>&1)
  grep -q "1 tasks run, 23 already done" <<<"$out" || fail "rerun of shard 1 did not compute the damaged row ($damage): $out"
done
# A directory where a task's cv/ file or row belongs, or a FIFO: the task is blocked. status counts it
# missing and names the path; run refuses before fitting anything, naming it, and nothing written is lost;
# collect refuses naming it (a FIFO would block its read).
cp "$tmp/s1/tasks/$task" "$tmp/row_before"
rm -f "$lost" && mkdir "$lost"
out=$("$bin" status "$tmp/s0" "$tmp/s1" --shards 2) ; status=$?
((status == 4)) && grep -q "total: 47 done, 1 missing" <<<"$out" || fail "status with a directory for a cv/ file ($status): $out"
grep -q "of the missing, 1 are blocked: .* The first: $lost$" <<<"$out" || fail "status does not name the blocked path: $out"
out=$("$bin" run "$config" --shard 1/2 --out "$tmp/s1" 2>&1) ; status=$?
((status == 1)) && grep -q "$lost: exists and is not a file, where run writes a task's result; move it away" <<<"$out" ||
  fail "run over a directory for a cv/ file ($status): $out"
cmp -s "$tmp/row_before" "$tmp/s1/tasks/$task" || fail "a refused run changed the task's row"
out=$(timeout 60 "$bin" collect "$tmp/s0" "$tmp/s1" --no-figures 2>&1) ; status=$?
((status == 1)) && grep -q "$lost: exists and is not a file" <<<"$out" || fail "collect over a directory for a cv/ file ($status): $out"
rmdir "$lost"
row="$tmp/s1/tasks/$task"
for blocker in directory fifo; do
  mv "$row" "$tmp/row_moved"
  if [[ $blocker == directory ]]; then mkdir "$row"; else mkfifo "$row"; fi
  out=$("$bin" status "$tmp/s0" "$tmp/s1") ; status=$?
  ((status == 4)) && grep -q "of the missing, 1 are blocked: .* The first: $row$" <<<"$out" || fail "status with a $blocker for a row ($status): $out"
  out=$(timeout 60 "$bin" collect "$tmp/s0" "$tmp/s1" --no-figures 2>&1) ; status=$?
  ((status == 1)) && grep -q "$row: exists and is not a file" <<<"$out" || fail "collect with a $blocker for a row ($status): $out"
  rm -rf "$row" && mv "$tmp/row_moved" "$row"
done
out=$("$bin" run "$config" --shard 1/2 --out "$tmp/s1" 2>&1)
grep -q "1 tasks run, 23 already done" <<<"$out" || fail "rerun of shard 1 after the directory was removed: $out"
# A link loop where a cv/ file belongs: blocked for status, and collect refuses it naming it (not a raw error).
mv "$lost" "$tmp/cv_moved" && ln -s "$lost" "$lost"
out=$("$bin" status "$tmp/s0" "$tmp/s1") ; status=$?
((status == 4)) && grep -q "of the missing, 1 are blocked: .* The first: $lost$" <<<"$out" || fail "status with a link loop for a cv/ file ($status): $out"
out=$("$bin" collect "$tmp/s0" "$tmp/s1" --no-figures 2>&1) ; status=$?
((status == 1)) && grep -q "$lost: exists and is not a file" <<<"$out" || fail "collect with a link loop for a cv/ file ($status): $out"
rm "$lost" && mv "$tmp/cv_moved" "$lost"
# Several directories: a task with no row anywhere is named by its blocked path in any of them; a blocked
# path in the first does not hide the second's complete row (status and collect read that row).
mv "$row" "$tmp/row_moved" && mv "$lost" "$tmp/cv_moved" && mkdir "$lost"
out=$("$bin" status "$tmp/s0" "$tmp/s1" --shards 2) ; status=$?
((status == 4)) && grep -q "of the missing, 1 are blocked: .* The first: $lost$" <<<"$out" ||
  fail "status does not name a blocked path in the second directory ($status): $out"
rmdir "$lost" && mv "$tmp/cv_moved" "$lost" && mv "$tmp/row_moved" "$row"
mkdir "$tmp/s0/tasks/$task"
out=$("$bin" status "$tmp/s0" "$tmp/s1" --shards 2) ; status=$?
((status == 0)) && grep -q "total: 48 done, 0 missing" <<<"$out" || fail "a directory in s0 hid s1's row from status ($status): $out"
out=$("$bin" collect "$tmp/s0" "$tmp/s1" --no-figures 2>&1) || fail "a directory in s0 hid s1's row from collect: $out"
rmdir "$tmp/s0/tasks/$task"
# A file, or a link to nothing, where run keeps a folder (cv/): refused before anything is written (no
# folder, no config.yaml), naming it.
for blocker in file dangling_link; do
  dir="$tmp/${blocker}_for_folder" && mkdir "$dir"
  if [[ $blocker == file ]]; then touch "$dir/cv"; else ln -s "$tmp/nowhere" "$dir/cv"; fi
  out=$("$bin" run "$config" --out "$dir" -q 2>&1) ; status=$?
  ((status == 1)) && grep -q "$dir/cv: exists and is not a folder, where run keeps its tasks' results" <<<"$out" ||
    fail "run with a $blocker in place of cv/ ($status): $out"
  [[ ! -e "$dir/tasks" && ! -e "$dir/config.yaml" ]] || fail "run wrote into the directory before refusing a $blocker in place of cv/"
done
# The run directory itself a file, or its config.yaml or run.log a FIFO (whose reading would block):
# refused, naming it, before anything is read or written; status refuses such a directory too.
touch "$tmp/out_is_file"
out=$("$bin" run "$config" --out "$tmp/out_is_file" -q 2>&1) ; status=$?
((status == 1)) && grep -q "$tmp/out_is_file: exists and is not a folder, where run writes its results" <<<"$out" ||
  fail "run into a file as --out ($status): $out"
for name in config.yaml run.log; do
  dir="$tmp/fifo_$name" && mkdir "$dir" && mkfifo "$dir/$name"
  out=$(timeout 60 "$bin" run "$config" --out "$dir" -q 2>&1) ; status=$?
  ((status == 1)) && grep -q "$dir/$name: exists and is not a file, where run writes its" <<<"$out" ||
    fail "run with a FIFO as $name ($status): $out"
  [[ ! -e "$dir/tasks" ]] || fail "run wrote tasks/ beside a FIFO as $name"
done
out=$(timeout 60 "$bin" status "$tmp/fifo_config.yaml" 2>&1) ; status=$?
((status == 1)) && grep -q "config.yaml: missing or not a file" <<<"$out" || fail "status with a FIFO as config.yaml ($status): $out"
out=$(timeout 60 "$bin" collect "$tmp/fifo_config.yaml" 2>&1) ; status=$?
((status == 1)) && grep -q "config.yaml: missing or not a file; collect needs" <<<"$out" || fail "collect with a FIFO as config.yaml ($status): $out"
long_name=$(printf 'x%.0s' {1..300})
out=$("$bin" run "$config" --out "$tmp/new/$long_name" -q 2>&1) ; status=$?
((status == 1)) && grep -q "a name in it is longer than the 255 bytes" <<<"$out" || fail "run with a name past 255 bytes in --out ($status): $out"
[[ ! -e "$tmp/new" ]] || fail "a run refused for a long --out made its folders"
deep="$tmp/new"; for _ in $(seq 16); do deep="$deep/$(printf 'q%.0s' {1..240})"; done
deep="$deep/$(printf 'q%.0s' {1..150})"  # about 4200 bytes to a task's file: short of PATH_MAX itself
out=$("$bin" run "$config" --out "$deep" -q 2>&1) ; status=$?
((status == 1)) && grep -q "with a task's file in it, a path of 4[0-9]* bytes, longer than the 4095 a path may have" <<<"$out" ||
  fail "run with an --out past PATH_MAX ($status): $out"
[[ ! -e "$tmp/new" ]] || fail "a run refused for an --out past PATH_MAX made its folders"
# Files read whole: a FIFO is refused, never opened (its read would block).
mkfifo "$tmp/fifo.csv"
out=$(timeout 60 "$bin" fit -g dca_gaussians:n=40,noise_dims=3,seed=3 -m SVM-1 --lambda 0.3 --out "$tmp/fifo.csv" --append 2>&1) ; status=$?
((status == 1)) && grep -q "$tmp/fifo.csv: exists and is not a regular file" <<<"$out" || fail "fit --append to a FIFO ($status): $out"
out=$(timeout 60 "$bin" collect "$tmp/s0" "$tmp/fifo_config.yaml" 2>&1) ; status=$?
((status == 1)) && grep -q "fifo_config.yaml/config.yaml: missing or not a file; collect needs" <<<"$out" ||
  fail "collect with a FIFO as the second directory's config.yaml ($status): $out"
out=$(timeout 60 "$bin" run "$tmp/fifo_config.yaml/config.yaml" --out "$tmp/from_fifo" -q 2>&1) ; status=$?
((status == 1)) && grep -q "fifo_config.yaml/config.yaml: exists and is not a regular file" <<<"$out" ||
  fail "run of a FIFO as its config ($status): $out"
# Folders run cannot write into (checked unprivileged: root may write anywhere): refused before any fit.
if (($(id -u) != 0)); then
  cp -a "$tmp/s1" "$tmp/s1_read_only" && chmod 555 "$tmp/s1_read_only/tasks"
  out=$("$bin" run "$config" protocol.outer.repetitions=6 --force --shard 1/2 --out "$tmp/s1_read_only" 2>&1) ; status=$?
  ((status == 1)) && grep -q "$tmp/s1_read_only/tasks: run cannot write there" <<<"$out" || fail "run into a read-only tasks/ ($status): $out"
  cmp -s "$tmp/s1/config.yaml" "$tmp/s1_read_only/config.yaml" || fail "a run refused for a read-only tasks/ rewrote config.yaml"
  chmod 644 "$tmp/s1_read_only/tasks"  # no search permission: its files cannot be looked at
  out=$("$bin" status "$tmp/s1_read_only" 2>&1) ; status=$?
  ((status == 1)) && grep -q "cannot be looked at (Permission denied)" <<<"$out" || fail "status of a tasks/ without search permission ($status): $out"
  chmod 755 "$tmp/s1_read_only/tasks"
  cp -a "$tmp/s1" "$tmp/s1_unreadable" && chmod 000 "$tmp/s1_unreadable/tasks/$task"
  for command in status collect; do
    out=$("$bin" $command "$tmp/s1_unreadable" 2>&1) ; status=$?
    ((status == 1)) && grep -q "$tmp/s1_unreadable/tasks/$task: cannot be read (Permission denied)" <<<"$out" ||
      fail "$command with an unreadable row ($status): $out"
  done
  chmod 644 "$tmp/s1_unreadable/tasks/$task" && chmod 000 "$tmp/s1_unreadable/cv/$task"
  for command in "status $tmp/s1_unreadable" "run $config --shard 1/2 --out $tmp/s1_unreadable -q"; do
    out=$("$bin" $command 2>&1) ; status=$?
    ((status == 1)) && grep -q "$tmp/s1_unreadable/cv/$task: cannot be read (Permission denied)" <<<"$out" ||
      fail "$command with an unreadable cv/ file ($status): $out"
  done
  mkdir -m 000 "$tmp/no_search"
  out=$("$bin" predict -g dca_gaussians:n=40,noise_dims=3,seed=5 --model "$tmp/no_search/m.yaml" 2>&1) ; status=$?
  ((status == 1)) && grep -q "$tmp/no_search/m.yaml: cannot be looked at (Permission denied)" <<<"$out" ||
    fail "predict with a model in a folder without search permission ($status): $out"
  mkdir "$tmp/read_only_parent" && chmod 555 "$tmp/read_only_parent"
  out=$("$bin" run "$config" --out "$tmp/read_only_parent/run" -q 2>&1) ; status=$?
  ((status == 1)) && grep -q "$tmp/read_only_parent: run cannot make its results' folder $tmp/read_only_parent/run there" <<<"$out" ||
    fail "run into a new folder of a read-only folder ($status): $out"
fi
# In a finished shard's directory: status names the folder; a refused run of another config leaves its
# config.yaml as it was.
cp -a "$tmp/s1" "$tmp/s1_blocked" && rm -r "$tmp/s1_blocked/cv" && touch "$tmp/s1_blocked/cv"
out=$("$bin" status "$tmp/s1_blocked") ; status=$?
((status == 4)) && grep -q "blocked folders: .* move it away: $tmp/s1_blocked/cv$" <<<"$out" || fail "status does not name a file in place of cv/ ($status): $out"
out=$("$bin" run "$config" protocol.outer.repetitions=6 --shard 1/2 --out "$tmp/s1_blocked" 2>&1) && fail "a run over a file in place of cv/ passed: $out"
cmp -s "$tmp/s1/config.yaml" "$tmp/s1_blocked/config.yaml" || fail "a refused run rewrote config.yaml"
for partial in "" --partial; do
  out=$("$bin" collect "$tmp/s1_blocked" $partial --no-figures 2>&1) ; status=$?
  ((status == 1)) && grep -q "$tmp/s1_blocked/cv: exists and is not a folder" <<<"$out" ||
    fail "collect $partial with a file in place of cv/ ($status): $out"
done
# A link loop in place of tasks/: status names the folder alone (its tasks' paths are not each blocked);
# collect names it too.
mv "$tmp/s1_blocked/tasks" "$tmp/s1_blocked/tasks_moved" && ln -s tasks "$tmp/s1_blocked/tasks"
out=$("$bin" status "$tmp/s1_blocked") ; status=$?
((status == 4)) && grep -q "blocked folders: .* move it away: $tmp/s1_blocked/tasks, $tmp/s1_blocked/cv$" <<<"$out" ||
  fail "status does not name a link loop in place of tasks/ ($status): $out"
grep -q "are blocked" <<<"$out" && fail "status counts the tasks below a link loop as blocked: $out"
out=$("$bin" collect "$tmp/s1_blocked" --partial 2>&1) ; status=$?
((status == 1)) && grep -q "$tmp/s1_blocked/tasks: exists and is not a folder, where run keeps its tasks' results" <<<"$out" ||
  fail "collect with a link loop in place of tasks/ ($status): $out"
out=$("$bin" status "$tmp/s0" "$tmp/absent" 2>&1) && fail "status of an absent directory exited 0"
grep -q "$tmp/absent: not a directory" <<<"$out" || fail "status of an absent directory: $out"
# A shard run from another path to the same files (a link, as on a cluster): its config.yaml's text
# differs, its tasks do not; status counts them.
ln -s "$root" "$tmp/root_link"
"$bin" run "$tmp/root_link/tests/data/tiny_run.yaml" --shard 1/2 --out "$tmp/s1_link" -q >/dev/null 2>&1 || fail "shard run through a link"
out=$("$bin" status "$tmp/s0" "$tmp/s1_link") ; status=$?
((status == 0)) && grep -q "total: 48 done, 0 missing" <<<"$out" || fail "status of shards run from two paths ($status): $out"
# collect of one shard: refused (tasks missing) unless --partial, whose cells then say n of N.
out=$("$bin" collect "$tmp/s0" 2>&1) && fail "collect of one shard of two exited 0"
grep -q "24 of 48 planned tasks have no result" <<<"$out" || fail "collect of one shard: $out"
"$bin" collect "$tmp/s0" --partial >/dev/null || fail "collect --partial exited $?"
grep -q "(n = 2 of 4)" "$tmp/s0/table_accuracy.csv" || fail "partial table cells lack n: $(cat "$tmp/s0/table_accuracy.csv")"
"$bin" collect "$tmp/s0" "$tmp/s1" >/dev/null || fail "collect of shards exited $?"
diff <(rows "$tmp/j1") <(rows "$tmp/s0") >/dev/null || fail "sharded rows differ from -j 1 rows"
for table in table_accuracy.csv table_n_features.csv paired_test.csv; do
  cmp -s "$tmp/j1/$table" "$tmp/s0/$table" || fail "$table differs between -j 1 and shards"
done
grep -q "^sonar,none,,,FSV,SVM-1,4," "$tmp/j1/paired_test.csv" || fail "paired_test.csv: $(cat "$tmp/j1/paired_test.csv")"
# The comparison tables against an independent computation from results.csv (numpy/scipy): the corrected
# resampled t-test (holdout 0.3: n_test/n_train = 3/7), Wilcoxon's signed rank (scipy's, exact or normal),
# the mean ranks per data set (scipy's rankdata) with Friedman's statistic and Nemenyi's CD; and every row
# with a certificate and a status that its certificate kind allows.
/usr/bin/python3 - "$tmp/j1" <<'PYTHON' || fail "comparison tables disagree with scipy"
import csv, math, sys
import numpy as np
from scipy import stats
d = sys.argv[1]
read = lambda name: list(csv.DictReader(open(f"{d}/{name}", newline="")))
rows = read("results.csv")
key = lambda r: (r["dataset"], r["condition_noise_dims"], r["condition_flip_count"])
values = {}
for r in rows:
    assert r["certificate"] != "" and r["certificate_kind"] != "", r
    allowed = {"optimal": {"duality_gap", "mip_gap"}, "converged": {"majorant_gap"}}.get(r["status"])
    assert allowed is None or r["certificate_kind"] in allowed, r
    values.setdefault(key(r), {}).setdefault(r["method"], {})[int(r["rep"])] = r
bad = tied = 0
for t in read("tests_accuracy.csv"):
    a = values[key(t)][t["method_a"]]; b = values[key(t)][t["method_b"]]
    diff = np.array([float(a[k]["accuracy"]) - float(b[k]["accuracy"]) for k in sorted(a)])
    J = len(diff)
    assert int(t["n"]) == J
    if diff.std(ddof=1) > 0:
        tc = diff.mean() / math.sqrt((1 / J + 3 / 7) * diff.var(ddof=1))
        p = 2 * stats.t.sf(abs(tc), J - 1)
        bad += abs(float(t["corrected_t"]) - tc) > 1e-9 or abs(float(t["corrected_t_p"]) - p) > 1e-7
    # Differences compared to 12 significant digits of the largest (ours: rounding makes no ties apart).
    q = np.round(diff / max(np.abs(diff).max(), 1e-300) * 1e12)
    nonzero = q[q != 0]
    if len(nonzero) > 0 and len(set(np.abs(nonzero))) == len(nonzero):
        w = stats.wilcoxon(nonzero, mode="exact")
        bad += abs(float(t["wilcoxon_p"]) - w.pvalue) > 1e-9
    elif 0 < len(nonzero) <= 16:  # tied: exact too, the sign flips of the midranks (scipy's is approximate)
        r = stats.rankdata(np.abs(nonzero))
        flips = np.array(np.meshgrid(*[[0, 1]] * len(r))).reshape(len(r), -1).T
        w_all = flips @ r
        observed = r[nonzero > 0].sum()
        p = np.mean(np.abs(w_all - r.sum() / 2) >= abs(observed - r.sum() / 2) - 1e-9)
        bad += abs(float(t["wilcoxon_p"]) - p) > 1e-9
        tied += 1
    if diff.std(ddof=1) == 0 and diff[0] != 0:  # no spread: no t statistic, blank cells
        bad += t["paired_t"] != "" or t["corrected_t"] != ""
assert bad == 0, f"{bad} mismatches"
assert tied > 0, "no comparison with tied differences: the exact tied p-values went unchecked"
for metric, higher in (("accuracy", True), ("n_features", False)):
    datasets = sorted(values)
    methods = [r["method"] for r in read(f"ranks_{metric}.csv")]
    table = np.array([[np.mean([float(r[metric]) for r in values[k][m].values()]) for m in methods] for k in datasets])
    ranks = np.array([stats.rankdata(-row if higher else row) for row in table]).mean(axis=0)
    ours = np.array([float(r["mean_rank"]) for r in read(f"ranks_{metric}.csv")])
    assert np.allclose(ranks, ours, atol=1e-12), (ranks, ours)
    N, k = table.shape
    chi2 = 12 * N / (k * (k + 1)) * (np.sum(ranks ** 2) - k * (k + 1) ** 2 / 4)
    line = [r for r in read("friedman.csv") if r["metric"] == metric][0]
    assert abs(float(line["chi_square"]) - chi2) < 1e-9, (line, chi2)
    cd = stats.studentized_range.ppf(0.95, k, 1e9) / math.sqrt(2) * math.sqrt(k * (k + 1) / (6 * N))
    assert abs(float(line["critical_difference"]) - cd) < 2e-3, (line, cd)
statuses = read("statuses.csv")
assert sum(int(s["rows"]) for s in statuses) == len(rows)
PYTHON

# run --dry-run loads every data file and refuses, naming the config key, the file and the fix, what no
# task could fit: no class column (a continuous last column), no features (d = 0); a ';'-separated file
# and a class column named by its header are read.
/usr/bin/python3 - "$root/datasets/sonar.csv" "$root/datasets/pima.csv" "$tmp" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
tmp = sys.argv[3]
open(f"{tmp}/semicolon.csv", "w").write("\n".join(";".join(r) for r in rows) + "\n")
open(f"{tmp}/no_class.csv", "w").write("\n".join(",".join(r[:-1]) for r in rows) + "\n")
open(f"{tmp}/no_features.csv", "w").write("class\n1\n-1\n1\n-1\n")
for name, entry in (("semicolon", "{name: s, file: %s/semicolon.csv}" % tmp),
                    ("no_class", "{name: s, file: %s/no_class.csv}" % tmp),
                    ("no_features", "{name: s, file: %s/no_features.csv, loader: {header: true}}" % tmp),
                    ("named", "{name: p, file: %s, loader: {label_column: label}}" % sys.argv[2])):
    open(f"{tmp}/{name}.yaml", "w").write(f"name: {name}\ndatasets:\n  - {entry}\nmethods: [OneNormSVM]\n"
                                          "protocol:\n  outer: {type: holdout, repetitions: 2}\n  inner: {type: none}\n")
PY
"$bin" run "$tmp/semicolon.yaml" --dry-run --out "$tmp/semicolon" >/dev/null || fail "a ';'-separated file was refused"
"$bin" run "$tmp/named.yaml" --dry-run --out "$tmp/named" >/dev/null || fail "label_column by header name was refused"
out=$("$bin" run "$tmp/no_class.yaml" --dry-run --out "$tmp/no_class" 2>&1) && fail "a file without a class column passed --dry-run"
grep -q "datasets\[0\] (data set 's'): .*no_class.csv: the class column holds .* a feature, not a class; .*label_column=K" <<<"$out" ||
  fail "no class column: $out"
out=$("$bin" run "$tmp/no_features.yaml" --dry-run --out "$tmp/no_features" 2>&1) && fail "d = 0 passed --dry-run"
grep -q "datasets\[0\] (data set 's'): .*no_features.csv: no features (d = 0)" <<<"$out" || fail "d = 0: $out"
[[ ! -e "$tmp/no_features" ]] || fail "a refused dry-run wrote its directory"

# Kill a run part-way (SIGKILL: no chance to clean up), resume it, compare with the uninterrupted run.
"$bin" run "$config" -q -j 1 --out "$tmp/killed" protocol.outer.repetitions=4 &
pid=$!
for _ in $(seq 1 200); do
  done_tasks=$(ls "$tmp/killed/tasks" 2>/dev/null | grep -c '\.csv$')
  ((done_tasks >= 10)) && break
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
finished=$(ls "$tmp/killed/tasks" | grep -c '\.csv$')
((finished < 48)) || echo "note: the run finished before it was killed; resume is still checked"
# status reads the config the run wrote when it started: it works on the killed run (exit 4: missing tasks).
if ((finished < 48)); then
  "$bin" status "$tmp/killed" >/dev/null 2>&1
  status=$?
  ((status == 4)) || fail "status of a killed run exited $status, not 4 (config.yaml written only at the end?)"
fi
"$bin" run "$config" -q -j 2 --out "$tmp/killed" || fail "resumed run exited $?"
diff <(rows "$tmp/j1") <(rows "$tmp/killed") >/dev/null || fail "killed and resumed rows differ from an uninterrupted run"
grep -q "tasks_skipped: $finished" "$tmp/killed/manifest.yaml" || fail "manifest does not record $finished skipped tasks"

# A changed config never reuses or mixes rows: another grid into the same directory runs every task
# again and collect reads only the new ones; more repetitions reuse the finished ones.
out=$("$bin" run "$config" -q -j 2 --out "$tmp/j1" grid.lambda=[0.2,0.4] 2>&1) && fail "another config into a run directory exited 0"
grep -q "holds a run of another config" <<<"$out" || fail "another config message: $out"
"$bin" run "$config" -q -j 2 --out "$tmp/j1" --force grid.lambda=[0.2,0.4] || fail "run --force with another grid exited $?"
grep -q "tasks_run: 48" "$tmp/j1/manifest.yaml" || fail "another grid did not rerun the 48 tasks: $(grep tasks_ "$tmp/j1/manifest.yaml")"
python3 - "$tmp/j1/results.csv" <<'PYTHON' || fail "results.csv mixes rows of two grids"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
lambdas = {r["lambda"] for r in rows if r["method"] != "RLP"}
sys.exit(0 if len(rows) == 48 and lambdas <= {"0.2", "0.4"} else 1)
PYTHON
out=$("$bin" collect "$tmp/j1") || fail "collect exited $?"
grep -q "48 task files in the directories belong to other configs" <<<"$out" || fail "collect did not report the old files: $out"
"$bin" run "$config" -q -j 2 --out "$tmp/j2" protocol.outer.repetitions=5 || fail "run with more repetitions exited $?"
grep -q "tasks_run: 12" "$tmp/j2/manifest.yaml" || fail "more repetitions did not reuse the finished tasks: $(grep tasks_ "$tmp/j2/manifest.yaml")"

# collect refuses to merge runs of different configs.
out=$("$bin" collect "$tmp/j1" "$tmp/j2" 2>&1) && fail "collect of two configs exited 0"
grep -q "holds a run of another config" <<<"$out" || fail "collect of two configs: $out"
# Numeric tables beside the formatted ones: mean, std, n; one repetition has no std (empty, not 0) and its
# formatted cell is the value alone; counts are whole numbers with one decimal.
python3 - "$tmp/j1/table_accuracy_numeric.csv" "$tmp/j1/table_n_features.csv" <<'PYTHON' || fail "numeric or count tables"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows and all(r["n"] == "4" and r["std"] != "" and float(r["mean"]) <= 1 for r in rows), rows
counts = list(csv.reader(open(sys.argv[2], newline="")))
assert all(".0 ±" in cell or cell.count(".") == 2 for row in counts[1:] for cell in row[1:]), counts
PYTHON
# Condition parameters are columns of their own; a data set without a generator grid says "none".
for file in summary.csv results.csv table_accuracy_numeric.csv paired_test.csv; do
  python3 - "$tmp/j1/$file" <<'PYTHON' || fail "condition columns of $file"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
found = {(r["dataset"], r["condition"], r["condition_noise_dims"], r["condition_flip_count"]) for r in rows}
assert found == {("gaussians", "noise_dims=5,flip_count=0", "5", "0"), ("gaussians", "noise_dims=5,flip_count=6", "5", "6"),
                 ("sonar", "none", "", "")}, found
PYTHON
done
# collect finds file data sets from any directory (the run directory's config stores absolute paths).
out=$(cd / && "$bin" collect "$tmp/j1") || fail "collect from / exited $?"
grep -q "^48 rows of 48 planned tasks" <<<"$out" || fail "collect from / lost rows: $out"

# A damaged task file (cut short) is a clear error naming it, not an internal error.
cp -r "$tmp/j2" "$tmp/damaged"
victim=$(ls "$tmp/damaged/tasks/"*.csv | head -1)
sed -i '2s/,[^,]*$//' "$victim"
out=$("$bin" collect "$tmp/damaged" 2>&1)
status=$?
((status == 1)) || fail "collect of a damaged file exited $status"
grep -q "the file is damaged" <<<"$out" || fail "damaged file message: $out"
# A full disk (simulated by a file size limit: sparsesvm ignores SIGXFSZ, so writes fail with EFBIG): exit 1,
# the path and the OS reason, a "stopped" line in run.log, and nothing written before is touched.
cp -r "$tmp/j2" "$tmp/full"
before=$(cd "$tmp/full" && sha256sum tasks/*.csv results.csv table_*.csv)
: >"$tmp/full/run.log"  # room for the "stopped" line under the 1 KB limit (on a really full disk it is lost)
out=$(ulimit -f 1; "$bin" run "$config" -q --out "$tmp/full" protocol.outer.repetitions=5 2>&1)
status=$?
((status == 1)) || fail "a results.csv larger than the file size limit exited $status"
# (The first file beyond 1 KB: the manifest, which holds the resolved config, or results.csv.)
grep -Eq "$tmp/full/(manifest.yaml|results.csv): cannot write file \(File too large\)" <<<"$out" || fail "file size limit message: $out"
grep -Eq "stopped: .*(manifest.yaml|results.csv): cannot write file \(File too large\)" "$tmp/full/run.log" || fail "run.log does not say why it stopped"
out=$(ulimit -f 0; "$bin" run "$config" -q --out "$tmp/full" protocol.outer.repetitions=6 2>&1)
status=$?
((status == 1)) || fail "task files over the file size limit exited $status"
# (The first write is now the run's config.yaml, written when the run starts; then the task files.)
grep -Eq "$tmp/full/(tasks/.*|config.yaml): cannot write file \(File too large\)" <<<"$out" || fail "task file size limit message: $out"
[[ -s "$tmp/full/config.yaml" ]] || fail "a failed write emptied config.yaml"
[[ "$before" == "$(cd "$tmp/full" && sha256sum tasks/*.csv results.csv table_*.csv)" ]] \
  || fail "a failed write changed files written before"
ls "$tmp/full/tasks" | grep -q '\.tmp\.' && fail "a failed write left a temporary file"
# An output directory that cannot be created: the path and the reason, exit 1.
out=$("$bin" run "$config" -q --out /etc/passwd/run 2>&1)
status=$?
((status == 1)) || fail "an unwritable --out exited $status"
grep -q "/etc/passwd: exists and is not a folder, so run cannot make its results' folder /etc/passwd/run" <<<"$out" ||
  fail "unwritable --out message: $out"

# An absent data file is an error naming it and the fetch hint; --skip-missing runs the rest and says so.
sed 's|file: ../../datasets/sonar.csv|file: /nonexistent/sonar.csv\n    fetch: "get sonar first"|' "$config" >"$tmp/missing.yaml"
out=$("$bin" run "$tmp/missing.yaml" -q --out "$tmp/missing" 2>&1) && fail "a missing data file exited 0"
grep -q "/nonexistent/sonar.csv: not present; get sonar first" <<<"$out" || fail "missing file message: $out"
grep -q -- "--skip-missing" <<<"$out" || fail "missing file message lacks the --skip-missing hint: $out"
"$bin" run "$tmp/missing.yaml" -q --skip-missing --out "$tmp/missing" || fail "--skip-missing exited $?"
grep -A1 "skipped_datasets:" "$tmp/missing/manifest.yaml" | grep -q "sonar" \
  || fail "manifest does not list the skipped data set"
head -2 "$tmp/missing/table_accuracy.csv" | grep -q "^method,.*,sonar$" || fail "table lacks the skipped data set's column"
grep -q "^OneNormSVM,.*,absent: not run (data file not present)$" "$tmp/missing/table_accuracy.csv" \
  || fail "table does not say the skipped data set was not run: $(cat "$tmp/missing/table_accuracy.csv")"
# Progress reaches a non-terminal stderr (a Slurm log) as log lines.
out=$("$bin" run "$config" -j 2 --out "$tmp/progress" protocol.outer.repetitions=1 2>&1)
grep -q "progress: 12/12 tasks" <<<"$out" || fail "no progress line on a non-terminal stderr: $out"
python3 - "$tmp/progress/table_accuracy_numeric.csv" "$tmp/progress/table_accuracy.csv" <<'PYTHON' || fail "n = 1 cells"
import csv, sys
numeric = list(csv.DictReader(open(sys.argv[1], newline="")))
assert numeric and all(r["n"] == "1" and r["std"] == "" for r in numeric), numeric
formatted = list(csv.reader(open(sys.argv[2], newline="")))
assert all("±" not in cell for row in formatted[1:] for cell in row[1:]), formatted
PYTHON

# Inner scores, baselines and kept weights: cv_scores.csv holds every candidate on every inner fold, its
# chosen line is the row's lambda; table_accuracy ends with the majority class (the mean of the rows'
# majority_accuracy); a model without features is marked; a tuned lambda is a median and counts;
# keep: [weights] writes every final model by feature name.
cat >"$tmp/cv.yaml" <<'YAML'
name: tiny_cv
seed: 3
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 60, noise_dims: 3}}
methods: [OneNormSVM, {name: OneNormSVM, label: empty, lambda: 10000}]
grid: {lambda: [0.1, 0.5, 2]}
protocol: {outer: {type: holdout, repetitions: 3}, inner: {type: kfold, folds: 3}}
tables: {metrics: [accuracy, lambda]}
keep: [weights]
YAML
"$bin" run "$tmp/cv.yaml" -q --out "$tmp/cv" || fail "run of the cv config exited $?"
/usr/bin/python3 - "$tmp/cv" <<'PYTHON' || fail "cv_scores.csv, baseline row, marks or weights.csv"
import csv, os, sys
d = sys.argv[1]
read = lambda name: list(csv.DictReader(open(os.path.join(d, name), newline="")))
results, scores, weights = read("results.csv"), read("cv_scores.csv"), read("weights.csv")
assert len(scores) == 3 * 3 * 3 and {s["method"] for s in scores} == {"OneNormSVM"}, len(scores)
for row in results:
    if row["method"] != "OneNormSVM":
        continue
    chosen = {s["lambda"] for s in scores if s["rep"] == row["rep"] and s["chosen"] == "1"}
    assert chosen == {row["lambda"]}, (row["rep"], chosen, row["lambda"])
    mine = [s for s in scores if s["rep"] == row["rep"] and s["lambda"] == row["lambda"]]
    assert abs(sum(float(s["score"]) for s in mine) / 3 - float(row["cv_accuracy"])) < 1e-12
table = {line[0]: line[1] for line in csv.reader(open(os.path.join(d, "table_accuracy.csv"), newline=""))}
majority = [float(r["majority_accuracy"]) for r in results if r["method"] == "OneNormSVM"]
assert table["majority class"].startswith(f"{sum(majority) / 3:.3f} ±"), table
assert table["empty"].endswith("[w = 0 in 3 of 3]") and "[w = 0" not in table["OneNormSVM"], table
lambdas = {line[0]: line[1] for line in csv.reader(open(os.path.join(d, "table_lambda.csv"), newline=""))}
cell = lambdas["OneNormSVM"]
assert cell.startswith("median ") and sum(int(part.split(" x")[1].rstrip(")")) for part in cell.split("(")[1].split(", ")) == 3, cell
assert len(weights) == 2 * 3 * (10 + 3 + 1), len(weights)  # 10 signal + 3 noise features and the bias
assert all(abs(float(w["weight"])) < 1e-6 for w in weights if w["method"] == "empty" and w["feature"] != "(bias)")
assert any(float(w["weight"]) != 0 for w in weights if w["method"] == "OneNormSVM" and w["feature"] != "(bias)")
PYTHON
# A task is finished only with its inner scores: without one cv file collect refuses (unless --partial) and
# a rerun recomputes that task's group; an edited score is refused naming the file and column.
cp -r "$tmp/cv" "$tmp/cv_edited"
edited=$(grep -l ",OneNormSVM," "$tmp/cv_edited/cv/"*.csv | head -1)
sed -i '2s/^\(\([^,]*,\)\{7\}\)[^,]*/\1abc/' "$edited"
out=$("$bin" collect "$tmp/cv_edited" 2>&1) && fail "collect of an edited cv file exited 0"
grep -q "$edited:2: column score: expected a number, found 'abc'" <<<"$out" || fail "edited cv file: $out"
rm "$(ls "$tmp/cv/cv/"*.csv | head -1)"
out=$("$bin" collect "$tmp/cv" 2>&1) && fail "collect with a cv file missing exited 0"
grep -q "1 tasks have a row but no cv/ file" <<<"$out" || fail "collect with a cv file missing: $out"
"$bin" collect "$tmp/cv" --partial >/dev/null 2>&1 || fail "collect --partial with a cv file missing exited $?"
"$bin" run "$tmp/cv.yaml" -q --out "$tmp/cv" || fail "rerun after a lost cv file exited $?"
grep -q "tasks_run: 1$" "$tmp/cv/manifest.yaml" || fail "a lost cv file was not rerun: $(grep tasks_ "$tmp/cv/manifest.yaml")"
[[ $(wc -l <"$tmp/cv/cv_scores.csv") -eq 28 ]] || fail "cv_scores.csv after the rerun: $(wc -l <"$tmp/cv/cv_scores.csv") lines"

# Dry run prints the plan and fits nothing.
out=$("$bin" run "$config" --dry-run --out "$tmp/dry") || fail "dry run exited $?"
grep -q "48 tasks" <<<"$out" || fail "dry run: $out"
[[ ! -e "$tmp/dry" ]] || fail "dry run wrote $tmp/dry"

# Bad configs: non-zero exit and a message naming the key.
sed 's/repetitions: 4/repetitons: 4/' "$config" >"$tmp/bad.yaml"
out=$("$bin" run "$tmp/bad.yaml" --out "$tmp/bad" 2>&1) && fail "bad config exited 0"
grep -q "protocol.outer.repetitons: unknown key" <<<"$out" || fail "bad config message: $out"
out=$("$bin" run "$config" --out "$tmp/bad" protocol.outer.type=bootstrap 2>&1) && fail "bad override exited 0"
grep -q "protocol.outer.type: unknown outer protocol 'bootstrap'" <<<"$out" || fail "bad override message: $out"
[[ ! -e "$tmp/bad" ]] || fail "a bad config left a run directory"

# The manifest records what a run needs to be traced.
for key in config_sha256 git_commit libraries host started finished resolved_config; do
  grep -q "^$key:" "$tmp/j1/manifest.yaml" || fail "manifest lacks $key"
done

# A selection metric undefined on some test parts (ROC AUC where a part of 50 holds no positive of pima_rare3's
# 3): its table cell says in how many rows, and the rows leave it empty rather than count a model as failed.
cat >"$tmp/undefined.yaml" <<YAML
name: undefined
seed: 4
datasets:
  - {name: rare, file: $root/datasets/pima_rare3.csv, transforms: [standardize]}
methods: [OneNormSVM]
grid: {lambda: [0.1]}
protocol:
  outer: {type: holdout, test_fraction: 0.1, repetitions: 6}
  inner: {type: none, metric: roc_auc}
tables:
  metrics: [roc_auc]
YAML
"$bin" run "$tmp/undefined.yaml" -q --no-figures --out "$tmp/undefined" >/dev/null 2>&1 || fail "undefined-metric run exited $?"
empty=$(awk -F, 'NR > 1 && $10 == "" && $5 == "optimal"' "$tmp/undefined/results.csv" | wc -l)
((empty > 0)) || fail "no row with an undefined roc_auc (the check needs one): $(cut -d, -f5,10 "$tmp/undefined/results.csv" | tr '\n' ' ')"
grep -q "\[undefined in $empty of 6\]" "$tmp/undefined/table_roc_auc.csv" ||
  fail "table_roc_auc.csv does not count the $empty undefined rows: $(cat "$tmp/undefined/table_roc_auc.csv")"

if ((failures)); then echo "$failures check(s) failed"; exit 1; fi
echo "all run checks passed"
