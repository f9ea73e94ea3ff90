#!/usr/bin/env bash
# End-to-end check of the figures: configs with every figure kind are run and collected, and
# scripts/plot.py (Debian's python3-matplotlib) writes every PNG the config lists; without figures.json,
# or with the data a figure needs deleted, it exits 1 naming the file.
# Usage: plot_test.sh PATH/TO/sparsesvm REPO_ROOT
set -uo pipefail
bin=$1
root=$2
plot=$root/scripts/plot.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
is_png() { [[ -s "$1" ]] && [[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]]; }

cat > "$tmp/figures.yaml" <<'YAML'
name: plot_check
seed: 3
datasets:
  - name: relevant
    generator: rw_relevant
    params: {n: 40, d: 30, distance: 3, seed: 1}
    grid: {d_rel: [1, 5, 30]}
methods:
  - {name: RW, C: 1, rw_iterations: 5, bias_feature: 0, label: RW}
  - {name: OneNormSVM-C, C: 1, label: LP}
protocol:
  outer: {type: half_half, repetitions: 2}
  inner: {type: none}
tables:
  metrics: [accuracy]
  convergence: {walk: RW, optimum: OneNormSVM-C}
figures:
  - {kind: convergence, file: convergence.png}
  - {kind: metric_by_condition, metric: accuracy, x: d_rel, as_error: true, file: error.png, title: "error"}
YAML
"$bin" run "$tmp/figures.yaml" -q --out "$tmp/run" || fail "run exited $?"
[[ -s "$tmp/run/figures.json" ]] || fail "collect wrote no figures.json"
# run draws the figures itself (Debian's python3, whatever python3 PATH finds first).
is_png "$tmp/run/convergence.png" && [[ -s "$tmp/run/index.html" ]] || fail "run drew no figures: $(cat "$tmp/run/plot.log" 2>&1)"
# Without matplotlib (a stand-in interpreter that has none), or without the interpreter: one line naming
# the Debian package; run still exits 0 with its tables, plot exits 1.
printf '#!/bin/sh\nexit 1\n' > "$tmp/no_matplotlib"
chmod +x "$tmp/no_matplotlib"
out=$(SPARSESVM_PYTHON=$tmp/no_matplotlib "$bin" plot "$tmp/run" 2>&1) && fail "plot without matplotlib exited 0"
grep -q "has no matplotlib (Debian: apt-get install python3-matplotlib" <<<"$out" || fail "plot without matplotlib: $out"
out=$(SPARSESVM_PYTHON=$tmp/absent "$bin" plot "$tmp/run" 2>&1) && fail "plot without python exited 0"
grep -q "figures not drawn: no $tmp/absent (Debian: apt-get install python3 python3-matplotlib" <<<"$out" || fail "plot without python: $out"
out=$(SPARSESVM_PYTHON=$tmp/no_matplotlib "$bin" run "$tmp/figures.yaml" -q --out "$tmp/run_bare" 2>&1) ||
  fail "run without matplotlib exited $?"
grep -q "has no matplotlib" <<<"$out" && [[ -s "$tmp/run_bare/table_accuracy.csv" ]] || fail "run without matplotlib: $out"
out=$("$bin" plot "$tmp/nothing" 2>&1) && fail "plot of a directory without figures.json exited 0"
grep -q "figures.json: missing" <<<"$out" || fail "plot without figures.json: $out"
[[ $(wc -l < "$tmp/run/convergence.csv") -eq 6 ]] || fail "convergence.csv: expected a header and 5 iterations"
/usr/bin/python3 "$plot" "$tmp/run" > "$tmp/plot.out" || fail "plot.py exited $?"
for png in convergence.png error.png; do
  is_png "$tmp/run/$png" || fail "$png is not a PNG"
done

# A config made from $2 by the sed expression $3 must be refused with a message matching $4.
refuses() {
  sed "$3" "$2" > "$tmp/bad.yaml"
  "$bin" run "$tmp/bad.yaml" --dry-run -q 2> "$tmp/err" && fail "$1 was accepted"
  grep -q -- "$4" "$tmp/err" || fail "$1: '$(cat "$tmp/err")'"
}

# Runs the Python on standard input after a prelude that loads plot.py as `plot` and the run directory
# $1's figure spec as `spec` (with `directory`, `csv` and `sys`).
check_figures() {
  { cat <<'PRELUDE'
import csv, importlib.util, sys
directory, plot_path = sys.argv[1], sys.argv[2]
spec_loader = importlib.util.spec_from_file_location("plot", plot_path)
plot = importlib.util.module_from_spec(spec_loader)
spec_loader.loader.exec_module(plot)
spec = plot.read_spec(directory)
PRELUDE
    cat; } | /usr/bin/python3 - "$1" "$plot"
}

# A critical-difference diagram: its bars join exactly the maximal groups of methods whose mean ranks
# (ranks_accuracy.csv) lie closer than the critical difference (friedman.csv), recomputed here; a method
# with unproven rows (PSI-1 stopped after 5 simplex iterations) is not ranked, and the caption names it.
cat > "$tmp/cd.yaml" <<'YAML'
name: cd_check
seed: 5
datasets:
  - {name: a, generator: dca_gaussians, params: {n: 40, seed: 1}}
  - {name: b, generator: dca_gaussians, params: {n: 40, seed: 2}}
  - {name: c, generator: dca_gaussians, params: {n: 40, seed: 3}, grid: {noise_dims: [0, 20]}}
methods: [OneNormSVM, SVM, RLSVM0, RLP, {name: PSI-1, lp_iteration_limit: 5}]
protocol:
  outer: {type: holdout, repetitions: 3}
  inner: {type: none}
tables:
  metrics: [accuracy]
  comparisons: {metrics: {accuracy: higher, n_features: lower}}
figures:
  - {kind: critical_difference, metric: accuracy, file: cd.png}
  - {kind: critical_difference, metric: n_features, file: cd_features.png}
YAML
"$bin" run "$tmp/cd.yaml" -q --out "$tmp/cd" || fail "cd run exited $?"
/usr/bin/python3 "$plot" "$tmp/cd" > /dev/null || fail "plot.py (cd) exited $?"
is_png "$tmp/cd/cd.png" || fail "cd.png is not a PNG"
[[ $(wc -l < "$tmp/cd/tests_accuracy.csv") -eq 41 ]] || fail "tests_accuracy.csv: every pair of 5 methods on 4 data sets"
check_figures "$tmp/cd" <<'PY' || fail "critical_difference figure"
for metric in ("accuracy", "n_features"):
    figure = [f for f in spec["figures"] if f["metric"] == metric][0]
    fig = plot.make_figure(directory, figure, spec)
    rows = list(csv.DictReader(open(f"{directory}/ranks_{metric}.csv")))
    assert [r["method"] for r in rows if r["ranked"] != "yes"] == ["PSI-1"], rows
    assert "not ranked (unproven rows" in fig.axes[0].get_title() and "PSI-1" in fig.axes[0].get_title()
    ranks = sorted(float(r["mean_rank"]) for r in rows if r["ranked"] == "yes")
    cd = float([r for r in csv.DictReader(open(f"{directory}/friedman.csv")) if r["metric"] == metric][0]["critical_difference"])
    groups = set()
    for i in range(len(ranks)):
        members = [j for j in range(i, len(ranks)) if ranks[j] - ranks[i] < cd]
        if len(members) > 1 and not any(set(members) <= set(g) for g in groups):
            groups.add(tuple(members))
    bars = sorted((round(seg[0][0] + 0.05, 9), round(seg[1][0] - 0.05, 9))
                  for c in fig.axes[0].collections if c.get_linewidth()[0] == 3 for seg in c.get_segments())
    expected = sorted((round(ranks[g[0]], 9), round(ranks[g[-1]], 9)) for g in groups)
    assert bars == expected, (metric, bars, expected, cd)
PY

# A race (issue 42): every drawn point is a fit's (F - F*) / |F*| at its trace's timestamp and iteration,
# recomputed here from results.csv with F* the least F either solver reached on that split; a race of
# methods with different objectives, or of one method, is refused.
cat > "$tmp/race.yaml" <<'YAML'
name: race_check
seed: 4
datasets:
  - {name: a, generator: dca_gaussians, params: {n: 60, noise_dims: 8, seed: 1}}
  - {name: b, generator: dca_gaussians, params: {n: 60, noise_dims: 8, seed: 2}}
methods: [DCA-SCAD, ADMM-SCAD, OneNormSVM-mean]
protocol:
  outer: {type: holdout, repetitions: 2}
  inner: {type: none}
tables:
  metrics: [objective]
figures:
  - {kind: race, methods: [DCA-SCAD, ADMM-SCAD], file: race.png}
YAML
"$bin" run "$tmp/race.yaml" -q --out "$tmp/race" || fail "race run exited $?"
is_png "$tmp/race/race.png" || fail "race.png is not a PNG: $(cat "$tmp/race/plot.log" 2>&1)"
check_figures "$tmp/race" <<'PY' || fail "race figure"
figure = spec["figures"][0]
rows = [r for r in csv.DictReader(open(f"{directory}/results.csv")) if r["method"] in ("DCA-SCAD", "ADMM-SCAD")]
fig = plot.make_figure(directory, figure, spec)
assert len(fig.axes) == 4, len(fig.axes)  # two data sets, seconds and iterations
for panel, dataset in enumerate(("a", "b")):
    expected = {}
    for rep in ("0", "1"):
        mine = [r for r in rows if r["dataset"] == dataset and r["rep"] == rep]
        best = min(float(v) for r in mine for v in r["objective_trace"].split(";"))
        for r in mine:
            values = [(float(v) - best) / abs(best) for v in r["objective_trace"].split(";")]
            seconds = [max(float(t), 1e-6) for t in r["objective_seconds_trace"].split(";")]
            iterations = ([float(k) for k in r["trace_iterations"].split(";")] if r["trace_iterations"]
                          else list(range(len(values))))
            assert len(seconds) == len(values) == len(iterations), r["method"]
            drawn = [max(v, plot.RACE_FLOOR) for v in values]
            expected.setdefault("seconds", []).append((seconds, drawn))
            expected.setdefault("iterations", []).append((iterations, drawn))
            assert min(values) >= 0.0
    for ax, kind in zip(fig.axes[2 * panel: 2 * panel + 2], ("seconds", "iterations")):
        lines = sorted((list(line.get_xdata()), list(line.get_ydata())) for line in ax.lines)
        want = sorted((list(x), list(y)) for x, y in expected[kind])
        assert len(lines) == 4, (dataset, kind, len(lines))
        for (x, y), (wx, wy) in zip(lines, want):
            assert all(abs(p - q) <= 1e-12 * max(1.0, abs(q)) for p, q in zip(x, wx)), (dataset, kind, x, wx)
            assert all(abs(p - q) <= 1e-12 * max(1.0, abs(q)) for p, q in zip(y, wy)), (dataset, kind, y, wy)
PY
refuses "a race of two objectives" "$tmp/race.yaml" 's/methods: \[DCA-SCAD, ADMM-SCAD\]/methods: [DCA-SCAD, OneNormSVM-mean]/' \
  "do not minimize one objective"
refuses "a race of one method" "$tmp/race.yaml" 's/methods: \[DCA-SCAD, ADMM-SCAD\]/methods: [DCA-SCAD]/' "at least two method labels"
refuses "a race of two lambdas" "$tmp/race.yaml" 's/^methods: \[DCA-SCAD, ADMM-SCAD,/methods: [DCA-SCAD, {name: ADMM-SCAD, lambda: 0.1},/' \
  "fix different model parameters or class weights"
refuses "a race of tuned methods" "$tmp/race.yaml" 's/  inner: {type: none}/  inner: {type: kfold, folds: 2}\ngrid: {lambda: [0.01, 0.1]}/' \
  "'DCA-SCAD' tunes lambda over a grid"
out=$("$bin" run "$tmp/race.yaml" --sweep theta=3,4 --dry-run -q 2>&1) && fail "a race of swept labels was accepted"
grep -q "its swept variants are DCA-SCAD_theta3, DCA-SCAD_theta4" <<<"$out" || fail "a race under --sweep: $out"
# The same objective spelled out (the defaults stated) and a one-value grid are one race.
sed 's/^methods: \[DCA-SCAD, ADMM-SCAD,/methods: [DCA-SCAD, {name: ADMM-SCAD, lambda: 0.015625, theta: 3.7},/' "$tmp/race.yaml" > "$tmp/race_same.yaml"
"$bin" run "$tmp/race_same.yaml" --dry-run -q >/dev/null 2>"$tmp/err" || fail "a race with the defaults stated was refused: $(cat "$tmp/err")"
sed 's/  inner: {type: none}/  inner: {type: none}\ngrid: {lambda: [0.1]}/' "$tmp/race.yaml" > "$tmp/race_one.yaml"
"$bin" run "$tmp/race_one.yaml" --dry-run -q >/dev/null 2>"$tmp/err" || fail "a race with a one-value grid was refused: $(cat "$tmp/err")"

# A bar figure and the objective ratio of two solvers of one objective (F_A / F_B - 1 per repetition,
# recomputed here from results.csv).
cat > "$tmp/bars.yaml" <<'YAML'
name: bars_check
seed: 3
datasets:
  - {name: a, generator: dca_gaussians, params: {n: 40, seed: 1}}
  - {name: b, generator: dca_gaussians, params: {n: 40, seed: 2}}
methods:
  - {name: ADMM-Capped, rho2_per_n: 1}
  - DCA-Capped
protocol:
  outer: {type: holdout, repetitions: 2}
  inner: {type: none}
tables:
  metrics: [objective, iteration_s]
  objective_ratio: [[ADMM-Capped, DCA-Capped]]
figures:
  - {kind: metric_by_dataset, metric: objective, file: bars.png}
  - {kind: objective_trace, method: DCA-Capped, file: trace.png}
YAML
"$bin" run "$tmp/bars.yaml" -q --out "$tmp/bars" || fail "bars run exited $?"
/usr/bin/python3 "$plot" "$tmp/bars" > /dev/null || fail "plot.py (bars) exited $?"
is_png "$tmp/bars/bars.png" || fail "bars.png is not a PNG"
is_png "$tmp/bars/trace.png" || fail "trace.png is not a PNG"
refuses "an objective_trace of an unknown label" "$tmp/bars.yaml" 's/method: DCA-Capped, file/method: DCA-Caped, file/' "figures\[1\].method: 'DCA-Caped' is not a method label"
# Seconds per sweep are far below 0.01: the table keeps significant digits, not "0.000 ± 0.000"
# (1.82e-05 or, on a slower machine, 0.000182).
grep -Eq "^ADMM-Capped,([1-9][0-9.]*e-0[0-9]|0\.0*[1-9][0-9]*) ± " "$tmp/bars/table_iteration_s.csv" ||
  fail "table_iteration_s.csv: $(cat "$tmp/bars/table_iteration_s.csv")"
/usr/bin/python3 - "$tmp/bars" <<'PY' || fail "objective_ratio.csv disagrees with results.csv"
import csv, sys
d = sys.argv[1]
f = {(r["dataset"], r["method"], r["rep"]): float(r["objective"]) for r in csv.DictReader(open(d + "/results.csv"))}
rows = list(csv.DictReader(open(d + "/objective_ratio.csv")))
assert [r["dataset"] for r in rows] == ["a", "b"], rows
for r in rows:
    ratios = [f[(r["dataset"], "ADMM-Capped", k)] / f[(r["dataset"], "DCA-Capped", k)] - 1 for k in ("0", "1")]
    assert r["n"] == "2", r
    assert abs(float(r["mean_relative"]) - sum(ratios) / 2) < 1e-12, (r, ratios)
    assert abs(float(r["max_relative"]) - max(ratios)) < 1e-12, (r, ratios)
    assert r["certified"] == "" and r["at_optimum"] == "", r  # DCA certifies no optimum
PY

# Against a baseline that certifies its optimum (`global`): how many baseline fits are certified and on how
# many of those the DCA method reaches the optimum, recomputed from results.csv.
cat > "$tmp/gap.yaml" <<'YAML'
name: gap_check
seed: 5
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 60, seed: 4, noise_dims: 5}}
methods:
  - {name: RLSVMC1, lambda: 0.3}
  - {name: RLSVMC1-global, lambda: 0.3, time_limit: 20}
  - {name: RLSVM1, lambda: 0.3}
  - {name: RLSVM1-global, lambda: 0.3, time_limit: 20}
protocol:
  outer: {type: train_tune_test, train: 25, tune: 0, test: 35, repetitions: 4}
tables:
  metrics: [objective]
  objective_ratio: [[RLSVMC1, RLSVMC1-global], [RLSVM1, RLSVM1-global]]
YAML
"$bin" run "$tmp/gap.yaml" -q --out "$tmp/gap" || fail "gap run exited $?"
/usr/bin/python3 - "$tmp/gap" <<'PY' || fail "objective_ratio.csv's certified counts disagree with results.csv"
import csv, sys
d = sys.argv[1]
rows = {(r["method"], r["rep"]): r for r in csv.DictReader(open(d + "/results.csv"))}
ratios = list(csv.DictReader(open(d + "/objective_ratio.csv")))
assert len(ratios) == 2, ratios
reached = 0
for ratio in ratios:
    dca, best = ratio["method"], ratio["baseline"]
    # Certified: optimal, or a gap closed over capped-l1's box (feasible with mip_closed 1), off the box's face.
    certified = [k for k in map(str, range(4)) if (rows[(best, k)]["status"] == "optimal" or rows[(best, k)]["mip_closed"] == "1")
                 and rows[(best, k)]["mip_box_binding"] != "1"]
    for k in map(str, range(4)):  # a box-limited optimum never says optimal
        assert rows[(best, k)]["mip_box_implied"] == "1" or rows[(best, k)]["status"] != "optimal", rows[(best, k)]
    at_optimum = [k for k in certified if abs(float(rows[(dca, k)]["objective"]) - float(rows[(best, k)]["objective"]))
                  <= 1e-5 * max(1.0, float(rows[(best, k)]["objective"]))]
    in_box = [k for k in certified if rows[(best, k)]["mip_box_implied"] == "0"]
    assert ratio["n"] == "4" and ratio["certified"] == str(len(certified)), (ratio, certified)
    assert ratio["at_optimum"] == str(len(at_optimum)) and ratio["below_certified"] == "0", (ratio, at_optimum)
    assert ratio["box_limited"] == str(len(in_box)), (ratio, in_box)
    assert (ratio["box_limited"] == "0") == (best == "RLSVM1-global"), ratio  # l1's bound is exact, capped-l1's a box
    assert len(certified) > 0, ratio
    reached += len(at_optimum)
    for k in map(str, range(4)):  # the global optimum is never above the DCA answer it started from
        assert float(rows[(best, k)]["objective"]) <= float(rows[(dca, k)]["objective"]) + 1e-9, (best, k)
# Here DCA misses RLSVMC1's optimum every time (the capped weights stay below a) and reaches RLSVM1's.
assert 0 < reached < 8, ratios
PY

# A coefficient path: the lines drawn are the weights results.csv keeps, against C in increasing order.
cat > "$tmp/path.yaml" <<'YAML'
name: path_check
seed: 7
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 40, seed: 3, noise_dims: 2}}
methods: [OneNormSVM-C]
sweep:
  C: [10, 0.1, 1]
protocol:
  outer: {type: holdout, repetitions: 1}
  inner: {type: none}
figures:
  - {kind: coefficient_path, method: OneNormSVM-C, x: C, file: path.png}
  - {kind: metric_by_parameter, method: OneNormSVM-C, x: C, metric: accuracy, as_error: true, file: error_by_C.png}
YAML
"$bin" run "$tmp/path.yaml" -q --out "$tmp/path" || fail "path run exited $?"
check_figures "$tmp/path" <<'PY' || fail "coefficient_path figure"
rows = sorted(csv.DictReader(open(directory + "/results.csv")), key=lambda r: float(r["C"]))
weights = [[float(v) for v in r["weights"].split(";")] for r in rows]
assert len(rows) == 3 and len(weights[0]) == 12, (len(rows), weights)
figure = plot.make_figure(directory, spec["figures"][0], spec)
lines = figure.axes[0].get_lines()[:12]
for j, line in enumerate(lines):
    assert list(line.get_xdata()) == [0.1, 1.0, 10.0], line.get_xdata()
    assert all(abs(a - b) < 1e-12 for a, b in zip(line.get_ydata(), [w[j] for w in weights])), (j, line.get_ydata())
errors = list(figure.axes[1].get_lines()[0].get_ydata())
assert all(abs(e - (1 - float(r["accuracy"]))) < 1e-12 for e, r in zip(errors, rows)), errors
PY
check_figures "$tmp/path" <<'PY' || fail "metric_by_parameter figure"
rows = sorted(csv.DictReader(open(directory + "/results.csv")), key=lambda r: float(r["C"]))
line = plot.make_figure(directory, spec["figures"][1], spec).axes[0].get_lines()[0]
assert list(line.get_xdata()) == [0.1, 1.0, 10.0], line.get_xdata()
assert all(abs(y - (1 - float(r["accuracy"]))) < 1e-12 for y, r in zip(line.get_ydata(), rows)), line.get_ydata()
PY
refuses "a metric_by_parameter figure of an unknown metric" "$tmp/path.yaml" 's/metric: accuracy, as_error/metric: acuracy, as_error/' "figures\[1\].metric: unknown metric 'acuracy'"
refuses "a coefficient path of one entry" "$tmp/path.yaml" 's/  C: \[10, 0.1, 1\]/  C: [10]/' "figures\[0\].method: 'OneNormSVM-C' needs at least two entries"
refuses "a path over entries differing in another parameter" "$tmp/path.yaml" 's/^methods: \[OneNormSVM-C\]/methods: [OneNormSVM-C, {name: OneNormSVM-C, lp_form: 1, label: LP}]/' "differ in more than C"

# A validation curve: each line is, per lambda, the mean over the outer splits of cv_scores.csv's mean_score;
# the circles sit at the chosen values, their areas counting the splits that chose them.
cat > "$tmp/curve.yaml" <<'YAML'
name: curve_check
seed: 2
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 60, seed: 5, noise_dims: 4, flip_fraction: 0.1}}
methods: [OneNormSVM, RLSVM1]
grid: {lambda: [0.05, 0.5, 5]}
protocol:
  outer: {type: holdout, repetitions: 3}
  inner: {type: kfold, folds: 3}
figures:
  - {kind: validation_curve, x: lambda, file: curve.png}
YAML
"$bin" run "$tmp/curve.yaml" -q --out "$tmp/curve" || fail "curve run exited $?"
/usr/bin/python3 "$plot" "$tmp/curve" > /dev/null || fail "plot.py (curve) exited $?"
is_png "$tmp/curve/curve.png" || fail "curve.png is not a PNG"
check_figures "$tmp/curve" <<'PY' || fail "validation_curve figure"
scores = list(csv.DictReader(open(directory + "/cv_scores.csv")))
axes = plot.make_figure(directory, spec["figures"][0], spec).axes[0]
lines = {line.get_label(): line for line in axes.get_lines()}
assert set(lines) == {"OneNormSVM", "RLSVM1"}, lines
for k, method in enumerate(["OneNormSVM", "RLSVM1"]):
    mine = [s for s in scores if s["method"] == method]
    lambdas = sorted({float(s["lambda"]) for s in mine})
    expected = [sum(float(s["mean_score"]) for s in mine if float(s["lambda"]) == x and s["fold"] == "0") / 3 for x in lambdas]
    assert list(lines[method].get_xdata()) == lambdas, lines[method].get_xdata()
    assert all(abs(a - b) < 1e-12 for a, b in zip(lines[method].get_ydata(), expected)), (method, expected)
    chosen = [float(s["lambda"]) for s in mine if s["chosen"] == "1" and s["fold"] == "0"]
    circles = axes.collections[2 * k + 1]  # after the line's band
    xs = [x for x, _ in circles.get_offsets()]
    assert sorted(xs) == sorted(set(chosen)), (xs, chosen)
    assert [round(size / 25) for size in circles.get_sizes()] == [chosen.count(x) for x in xs], circles.get_sizes()
PY
refuses "a validation curve over a parameter nobody tunes" "$tmp/curve.yaml" 's/x: lambda, file/x: mu, file/' "figures\[0\].x: 'mu' is tuned by no method"
refuses "a validation curve without inner selection" "$tmp/curve.yaml" 's/inner: {type: kfold, folds: 3}/inner: {type: none}/; s/lambda: \[0.05, 0.5, 5\]/lambda: [0.5]/' "validation_curve needs an inner selection"

# A boundary figure: the points are the training part, each drawn line is its row's w.x + b = 0, and the
# crossed points are the ones restricted psi fixed (plot.py checks their count against the row).
# (Seed 10 draws a sample where the restricted psi fixes points; at seed 8 its start fixed none.)
cat > "$tmp/boundary.yaml" <<'YAML'
name: boundary_check
seed: 10
datasets:
  - {name: disk, generator: psi_unit_disk, params: {n: 80}}
methods:
  - SVM-C
  - {name: PSI-2r, time_limit: 5, restrict_margin: 1.5}
grid:
  C: [0.1, 10]
protocol:
  outer: {type: train_tune_test, train: 30, tune: 30, test: 20, repetitions: 1}
figures:
  - {kind: boundary, methods: [SVM-C, PSI-2r], bayes_line: [1, 0, 0], file: boundary.png}
YAML
"$bin" run "$tmp/boundary.yaml" -q --out "$tmp/boundary" || fail "boundary run exited $?"
check_figures "$tmp/boundary" <<'PY' || fail "boundary figure"
points = list(csv.DictReader(open(directory + "/boundary_points.csv")))
assert len(points) == 30, len(points)
rows = {r["method"]: r for r in csv.DictReader(open(directory + "/results.csv"))}
axes = plot.make_figure(directory, spec["figures"][0], spec).axes[0]
lines = {line.get_label(): line for line in axes.get_lines()}
for label in ("SVM-C", "PSI-2r"):
    w = [float(v) for v in rows[label]["weights"].split(";")]
    b = float(rows[label]["bias"])
    for x, y in zip(lines[label].get_xdata(), lines[label].get_ydata()):
        assert abs(w[0] * x + w[1] * y + b) < 1e-9, (label, x, y)
assert list(lines["Bayes rule"].get_xdata()) == [0.0, 0.0], lines["Bayes rule"].get_xdata()  # x1 = 0, vertical
crossed = [c for c in axes.collections if c.get_label().startswith("fixed to region 3")]
assert len(crossed) == 1 and len(crossed[0].get_offsets()) == round(float(rows["PSI-2r"]["mip_fixed_examples"])) > 0
PY
refuses "a Bayes line of two numbers" "$tmp/boundary.yaml" 's/bayes_line: \[1, 0, 0\]/bayes_line: [1, 0]/' "figures\[0\].bayes_line: expected \[w1, w2, b\]"
refuses "a boundary figure without labels" "$tmp/boundary.yaml" 's/methods: \[SVM-C, PSI-2r\]/methods: []/' "figures\[0\].methods: expected at least one method label"

# The quickstart's figures: each PNG is an image with more than one colour, index.html shows them all,
# and the bars drawn are the means of summary.csv (read back from the matplotlib figure itself).
"$bin" run "$root/configs/quickstart.yaml" -q -j 2 --out "$tmp/quick" || fail "quickstart run exited $?"
/usr/bin/python3 "$plot" "$tmp/quick" > /dev/null || fail "plot.py (quickstart) exited $?"
check_figures "$tmp/quick" <<'PY' || fail "quickstart figures"
import json
import matplotlib.image
index = open(directory + "/index.html").read()
summary = {(r["method"], r["metric"]): float(r["mean"]) for r in csv.DictReader(open(directory + "/summary.csv"))}
assert [figure["kind"] for figure in spec["figures"]] == ["metric_by_dataset", "metric_by_dataset", "validation_curve"], spec
for figure in spec["figures"]:
    pixels = matplotlib.image.imread(directory + "/" + figure["file"])
    assert pixels.shape[0] > 200 and pixels.shape[1] > 200 and pixels.std() > 0.05, (figure["file"], pixels.shape, pixels.std())
    assert f'src="{figure["file"]}"' in index, figure["file"]
    if figure["kind"] != "metric_by_dataset":
        continue
    heights = [patch.get_height() for patch in plot.make_figure(directory, figure, spec).axes[0].patches]
    expected = [summary[(method, figure["metric"])] for method in spec["methods"]]
    if figure["as_error"]:
        expected = [1 - value for value in expected]
    assert len(heights) == len(expected) and all(abs(h - e) < 1e-12 for h, e in zip(heights, expected)), (heights, expected)
PY

# Failures name the file and exit 1.
mkdir "$tmp/empty"
/usr/bin/python3 "$plot" "$tmp/empty" 2> "$tmp/err" && fail "plot.py without figures.json exited 0"
grep -q "figures.json: not found" "$tmp/err" || fail "no figures.json: message '$(cat "$tmp/err")'"
rm "$tmp/run/convergence.csv"
/usr/bin/python3 "$plot" "$tmp/run" 2> "$tmp/err" && fail "plot.py without convergence.csv exited 0"
grep -q "convergence.csv: not found" "$tmp/err" || fail "no convergence.csv: message '$(cat "$tmp/err")'"

# A convergence table whose "optimum" does not solve the walk's objective is a config error.
refuses "a convergence table against RW itself" "$tmp/figures.yaml" 's/optimum: OneNormSVM-C}/optimum: RW}/' "tables.convergence"

# A figure on a parameter that is not a generator grid key is a config error.
refuses "a figure on an unknown x" "$tmp/figures.yaml" 's/x: d_rel/x: noise_dims/' "figures\[1\].x"

((failures == 0)) && echo "plot_test: all checks passed"
exit $((failures > 0))
