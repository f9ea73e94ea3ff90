#!/usr/bin/python3
"""Draws the figures of a collected run: the `figures:` list of its config, which `sparsesvm collect` (and
`run`) writes to DIR/figures.json, from DIR/summary.csv and DIR/convergence.csv. Each figure becomes
DIR/<file> (PNG). Figure kinds:

  convergence          [RW] Fig. 2: worst, mean, true mean and true median of (F_t - F*) / F* per
                       iteration, log scale (convergence.csv)
  metric_by_condition  a metric's mean over the outer splits (error bars: one standard deviation)
                       against a generator grid parameter, one line per method in config order, one
                       panel per value of the other grid parameters (and data set); as_error plots
                       1 - metric (summary.csv)
  metric_by_dataset    a metric's mean (error bars: one standard deviation) as grouped bars: one group
                       per data set and condition, one bar per method in config order (summary.csv)
  objective_trace      [DCA] Fig. 13: a method's objective after each iteration divided by its
                       initial value, averaged over the outer splits, one line per data set and
                       condition; a split that converged earlier keeps its last value (results.csv)
  coefficient_path     [PSI] Fig. 4: for the first data set and repetition 0, every weight of the entries
                       of one method against the parameter x they fix (a sweep), and their test error
                       below (results.csv, column weights)
  metric_by_parameter  a metric's mean over the outer splits (error bars: one standard deviation) against
                       the parameter x that the entries of one method fix (a sweep), one line per data
                       set and condition; as_error plots 1 - metric (results.csv)
  validation_curve     the inner CV score against a tuned parameter x: for each outer split and value of
                       x the best candidate's mean over the inner folds (other tuned parameters at their
                       best), then the mean over the outer splits (band: one standard deviation), one line
                       per method label, one panel per data set and condition; each outer split's chosen
                       value is marked, the marker's area growing with how many chose it (validation_curves.csv,
                       which collect aggregates from cv_scores.csv)
  critical_difference  Demsar (2006) Fig. 1: the methods' mean ranks of a metric over the data sets (1 = the
                       best) on one axis, Nemenyi's critical difference above it, and a thick bar joining
                       each maximal group of methods whose ranks lie closer than it (not significantly
                       different); Friedman's p-value, the ranked rows' statuses and the methods left out
                       for unproven rows in the caption (ranks_<metric>.csv, friedman.csv)
  race                 benchopt's curves for methods that minimize one objective: each fit's suboptimality
                       (F - F*) / |F*| against seconds (left) and against its own iterations (right;
                       ADMM: sweeps, then one per DCA step), from its objective trace and the trace's
                       timestamps (results.csv: objective_trace, objective_seconds_trace,
                       trace_iterations), F* the least F any of the methods reached on that split; one
                       thin line per repetition, one colour per method, one row per data set and
                       condition; values at or below RACE_FLOOR drawn at it (they reached F*)
  boundary             [PSI] Fig. 3: the training points of repetition 0 of the first data set (two
                       features; boundary_points.csv names it) and the lines w.x + b = 0 of the listed
                       labels on it; when a later label is a restricted psi started from the first
                       label's fit (its start is that method, its start_C that C), the points it fixed
                       (y f above its restrict_margin under that fit) are crossed, and their count must
                       equal the row's mip_fixed_examples; otherwise the legend says why not; with
                       bayes_line [w1, w2, b] in the config, that line too
After the figures, DIR/index.html shows them all with their titles.

Usage: scripts/plot.py DIR [DIR ...]      (Debian's python3 and python3-matplotlib)
Exit 1 with a message naming the file when a directory has no figures.json or lacks the data a figure
needs.
"""
import csv
import html
import json
import os
import textwrap
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the file-only backend)


class PlotError(Exception):
    pass


def read_rows(path):
    if not os.path.exists(path):
        raise PlotError(f"{path}: not found (run `sparsesvm collect` first)")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def line_style(k):
    """Colour and line style of the k-th series: ten colours, then the same with dashes, then dots."""
    return {"color": f"C{k % 10}", "linestyle": ("-", "--", ":")[(k // 10) % 3]}


def split_condition(condition, name):
    """(value of `name`, the rest) of a condition such as "noise_dims=10,flip_fraction=0.1", or (None, "")."""
    value, rest = None, []
    for part in condition.split(","):
        key, _, text = part.partition("=")
        if key == name:
            value = float(text)
        elif part:
            rest.append(part)
    return value, ",".join(rest)


def plot_convergence(directory, figure):
    path = os.path.join(directory, "convergence.csv")
    rows = read_rows(path)
    if not rows:
        raise PlotError(f"{path}: no iterations (no walk had a matching optimum)")
    if int(rows[0]["below_optimum"]) > 0:
        raise PlotError(f"{path}: {rows[0]['below_optimum']} walks went below their 'optimum' by more than 1e-6: "
                        "the optimum method does not solve the walk's objective")
    iterations = [int(row["iteration"]) for row in rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    labels = {"worst": "worst data set (its C worst at the last iteration)", "mean": "mean over data sets",
              "true_mean": "mean over data sets and C", "true_median": "median over data sets and C"}
    for column, style in (("worst", "-"), ("mean", "--"), ("true_mean", "-."), ("true_median", ":")):
        # A gap of 0 (the walk reached the optimum to rounding, within 1e-6) cannot be drawn on a log scale.
        values = [max(float(row[column]), 1e-16) for row in rows]
        ax.semilogy(iterations, values, style, label=labels[column])
    ax.set_xlabel("iteration")
    ax.set_ylabel("(F - F*) / F*")
    ax.legend()
    return fig


def plot_metric_by_condition(directory, figure, methods):
    """One panel per value of the other condition parameters (and data set), one line per method."""
    path = os.path.join(directory, "summary.csv")
    rows = [row for row in read_rows(path) if row["metric"] == figure["metric"]]
    panels = {}  # (dataset, the other condition parameters) -> method -> [(x, y, std)]
    for row in rows:
        x, rest = split_condition(row["condition"], figure["x"])
        if x is None or row["mean"] in ("", "nan") or row["method"] not in methods:
            continue
        mean = float(row["mean"])
        std = float(row["std"]) if row["std"] not in ("", "nan") else 0.0
        y = 1.0 - mean if figure["as_error"] else mean
        panels.setdefault((row["dataset"], rest), {}).setdefault(row["method"], []).append((x, y, std))
    if not panels:
        raise PlotError(f"{path}: no rows of metric {figure['metric']} with a condition on {figure['x']}")
    columns = min(4, len(panels))
    panel_rows = (len(panels) + columns - 1) // columns
    fig, axes = plt.subplots(panel_rows, columns, figsize=(3.4 * columns + 1.6, 2.9 * panel_rows + 0.6),
                             sharey=True, squeeze=False)
    all_x = [p[0] for lines in panels.values() for points in lines.values() for p in points]
    log_x = min(all_x) > 0 and max(all_x) / min(all_x) >= 20
    datasets = {dataset for dataset, _ in panels}
    for ax, ((dataset, rest), lines) in zip(axes.flat, panels.items()):
        for method in methods:  # config order, the same colour in every panel
            points = sorted(lines.get(method, []))
            if points:
                ax.errorbar([p[0] for p in points], [p[1] for p in points], yerr=[p[2] for p in points], marker="o",
                            markersize=3, capsize=2, label=method, **line_style(methods.index(method)))
        ax.set_title(", ".join(part for part in (dataset if len(datasets) > 1 else "", rest) if part), fontsize=8)
        if log_x:
            ax.set_xscale("log")
        ax.set_xlabel(figure["x"], fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel(("error (1 - " + figure["metric"] + ")") if figure["as_error"] else figure["metric"], fontsize=8)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center right", fontsize=7)
    return fig


def panel_grid(count):
    """A figure with `count` panels (at most four per row) sharing y, and its axes in reading order."""
    columns = min(4, count)
    panel_rows = (count + columns - 1) // columns
    fig, axes = plt.subplots(panel_rows, columns, figsize=(3.4 * columns + 1.6, 2.9 * panel_rows + 0.6),
                             sharey=True, squeeze=False)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    return fig, axes


def is_log_scale(xs):
    return min(xs) > 0 and max(xs) / min(xs) >= 20


def condition_title(dataset, condition):
    return dataset + (f" {condition}" if condition not in ("", "none") else "")


def mean_and_std(values):
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5


def plot_validation_curve(directory, figure, methods):
    path = os.path.join(directory, "validation_curves.csv")
    # (dataset, condition) -> label -> [(x, mean, std, chosen)], as collect aggregated them
    curves = {}
    for row in read_rows(path):
        if row["method"] not in figure["labels"] or row["parameter"] != figure["x"] or row["splits"] == "0":
            continue
        panel = (row["dataset"], row["condition"])
        curves.setdefault(panel, {}).setdefault(row["method"], []).append(
            (float(row["value"]), float(row["mean_score"]), float(row["std_score"] or 0), int(row["chosen"])))
    if not curves:
        raise PlotError(f"{path}: no inner scores of {', '.join(figure['labels'])} over {figure['x']}")
    fig, axes = panel_grid(len(curves))
    for ax, (panel, lines) in zip(axes.flat, curves.items()):
        xs_seen = []
        for label in figure["labels"]:
            points = lines.get(label)
            if not points:
                continue
            xs = [x for x, _, _, _ in points]
            means = [m for _, m, _, _ in points]
            xs_seen += xs
            style = line_style(methods.index(label))
            ax.plot(xs, means, marker=".", label=label, **style)
            ax.fill_between(xs, [m - s for _, m, s, _ in points], [m + s for _, m, s, _ in points],
                            color=style["color"], alpha=0.12)
            picked = [(x, m, c) for x, m, _, c in points if c > 0]
            ax.scatter([x for x, _, _ in picked], [m for _, m, _ in picked], s=[25 * c for _, _, c in picked],
                       facecolors="none", edgecolors=style["color"], zorder=3)
        if is_log_scale(xs_seen):
            ax.set_xscale("log")
        ax.set_title(condition_title(*panel), fontsize=8)
        ax.set_xlabel(figure["x"], fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in axes[:, 0]:
        ax.set_ylabel(f"inner CV {figure['metric']} (circles: chosen)", fontsize=8)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center right", fontsize=7)
    return fig


def plot_metric_by_parameter(directory, figure):
    path = os.path.join(directory, "results.csv")
    values = {}  # (dataset, condition) -> x -> metric values over the outer splits
    for row in read_rows(path):
        if row["method"] not in figure["labels"] or row["status"] not in SOLVED or row[figure["metric"]] == "":
            continue
        value = float(row[figure["metric"]])
        values.setdefault((row["dataset"], row["condition"]), {}).setdefault(float(row[figure["x"]]), []).append(
            1.0 - value if figure["as_error"] else value)
    if not values:
        raise PlotError(f"{path}: no solved rows of {figure['method']} with metric {figure['metric']}")
    fig, ax = plt.subplots(figsize=(6, 4))
    all_x = []
    for k, (panel, by_x) in enumerate(values.items()):
        xs = sorted(by_x)
        all_x += xs
        stats = [mean_and_std(by_x[x]) for x in xs]
        ax.errorbar(xs, [m for m, _ in stats], yerr=[s for _, s in stats], marker="o", markersize=3, capsize=2,
                    label=condition_title(*panel), **line_style(k))
    if is_log_scale(all_x):
        ax.set_xscale("log")
    ax.set_xlabel(f"{figure['x']} ({figure['method']})")
    ax.set_ylabel(("error (1 - " + figure["metric"] + ")") if figure["as_error"] else figure["metric"])
    ax.legend(fontsize=7)
    return fig


def plot_metric_by_dataset(directory, figure, methods):
    path = os.path.join(directory, "summary.csv")
    rows = [row for row in read_rows(path) if row["metric"] == figure["metric"] and row["mean"] not in ("", "nan")]
    groups = []  # (dataset, condition) in file order (config order)
    for row in rows:
        if (row["dataset"], row["condition"]) not in groups:
            groups.append((row["dataset"], row["condition"]))
    if not groups:
        raise PlotError(f"{path}: no rows of metric {figure['metric']}")
    cells = {(row["dataset"], row["condition"], row["method"]): row for row in rows}
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(groups) + 2), 4))
    width = 0.8 / len(methods)
    for m, method in enumerate(methods):
        xs, means, stds = [], [], []
        for g, (dataset, condition) in enumerate(groups):
            row = cells.get((dataset, condition, method))
            if row is None:
                continue
            mean = float(row["mean"])
            xs.append(g + (m - (len(methods) - 1) / 2) * width)
            means.append(1.0 - mean if figure["as_error"] else mean)
            stds.append(float(row["std"]) if row["std"] not in ("", "nan") else 0.0)
        if xs:
            ax.bar(xs, means, width, yerr=stds, capsize=2, label=method)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([d + (f" {c}" if c not in ("", "none") else "") for d, c in groups], rotation=30, ha="right")
    ax.set_ylabel(("error (1 - " + figure["metric"] + ")") if figure["as_error"] else figure["metric"])
    ax.legend(fontsize=7, ncol=2)
    return fig


SOLVED = ("optimal", "converged", "feasible", "solved_inaccurate")  # statuses with a solution (core/status.hpp)


def plot_objective_trace(directory, figure):
    path = os.path.join(directory, "results.csv")
    traces = {}  # (dataset, condition) -> the method's traces over the outer splits
    for row in read_rows(path):
        if row["method"] == figure["method"] and row["status"] in SOLVED and row["objective_trace"]:
            trace = [float(value) for value in row["objective_trace"].split(";")]
            if trace[0] > 0:
                traces.setdefault((row["dataset"], row["condition"]), []).append([v / trace[0] for v in trace])
    if not traces:
        raise PlotError(f"{path}: no objective traces of method {figure['method']}")
    fig, ax = plt.subplots(figsize=(6, 4))
    for k, ((dataset, condition), runs) in enumerate(traces.items()):
        length = max(len(run) for run in runs)
        # A split that stopped earlier stays at its last value (its iterate no longer moves).
        mean = [sum(run[min(t, len(run) - 1)] for run in runs) / len(runs) for t in range(length)]
        ax.plot(range(length), mean, marker=".", label=dataset + (f" {condition}" if condition not in ("", "none") else ""),
                **line_style(k))
    ax.set_xlabel("iteration")
    ax.set_ylabel("objective / initial objective")
    ax.legend(fontsize=7)
    return fig


RACE_FLOOR = 1e-12  # suboptimality drawn for a point at F* (a log axis has no 0)


def objective_columns(row):
    """The columns of a results row that fix its objective: the model parameters (between `status` and the
    inner score's columns) and class_weight where present."""
    names = list(row.keys())
    first = names.index("status") + 1
    last = min(names.index(c) for c in ("cv_accuracy", "cv_metric") if c in names)
    return names[first:last] + (["class_weight"] if "class_weight" in names else [])


def numbers(cell):
    return [float(value) for value in cell.split(";")] if cell else []


def race_curves(directory, figure):
    """{(dataset, condition): {label: [(seconds, iterations, suboptimality) per repetition]}}, with
    suboptimality (F_t - F*) / |F*| and F* the least F of any entry of any trace of the figure's labels on
    that data set, condition and repetition. Rows of one split whose objective parameters differ are an
    error: they do not race on one objective."""
    path = os.path.join(directory, "results.csv")
    runs = {}  # (dataset, condition, rep) -> {label: row}
    for row in read_rows(path):
        if row["method"] in figure["labels"] and row["status"] in SOLVED and row["objective_trace"]:
            runs.setdefault((row["dataset"], row["condition"], row["rep"]), {})[row["method"]] = row
    if not runs:
        raise PlotError(f"{path}: no objective traces of {', '.join(figure['labels'])}")
    curves = {}
    for (dataset, condition, rep), rows in sorted(runs.items(), key=lambda item: (item[0][0], item[0][1], int(item[0][2]))):
        first = next(iter(rows.values()))
        for label, row in rows.items():
            differ = [p for p in objective_columns(row) if row[p] != first[p]]
            if differ:
                raise PlotError(f"{path}: {label} and {first['method']} on {dataset} repetition {rep} differ in "
                                f"{', '.join(differ)}: a race needs one objective")
        best = min(min(numbers(row["objective_trace"])) for row in rows.values())
        scale = abs(best) if best != 0 else 1.0
        for label, row in rows.items():
            values = numbers(row["objective_trace"])
            seconds = numbers(row["objective_seconds_trace"])
            iterations = numbers(row.get("trace_iterations", "")) or list(range(len(values)))
            if len(seconds) != len(values) or len(iterations) != len(values):
                raise PlotError(f"{path}: {label} on {dataset} repetition {rep}: its objective trace, its timestamps "
                                f"and its iterations differ in length")
            suboptimality = [(value - best) / scale for value in values]
            curves.setdefault((dataset, condition), {}).setdefault(label, []).append((seconds, iterations, suboptimality))
    return curves


def plot_race(directory, figure):
    curves = race_curves(directory, figure)
    fig, axes = plt.subplots(len(curves), 2, figsize=(9, 2.4 * len(curves)), squeeze=False)
    for row_axes, ((dataset, condition), by_label) in zip(axes, curves.items()):
        for k, label in enumerate(figure["labels"]):
            for r, (seconds, iterations, suboptimality) in enumerate(by_label.get(label, [])):
                drawn = [max(value, RACE_FLOOR) for value in suboptimality]
                at_seconds = [max(t, 1e-6) for t in seconds]  # the start's entry at 0 s, on a log axis
                for ax, x in zip(row_axes, (at_seconds, iterations)):
                    # A marker on every point: a one-point trace (an LP's answer) is a dot, not an invisible line.
                    ax.plot(x, drawn, linewidth=0.8, marker="o", markersize=2.5, label=label if r == 0 else None,
                            **line_style(k))
        name = dataset + (f" {condition}" if condition not in ("", "none") else "")
        for ax, xlabel in zip(row_axes, ("seconds", "iterations")):
            ax.set_yscale("log")
            if xlabel == "seconds":
                ax.set_xscale("log")
            else:
                ax.set_xscale("symlog")  # iteration 0, the start, on a log-like axis
                ax.set_xlim(left=0)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(f"{name}: (F - F*) / |F*|", fontsize=7)
        row_axes[0].legend(fontsize=6)
    fig.tight_layout()
    return fig


def plot_coefficient_path(directory, figure):
    path = os.path.join(directory, "results.csv")
    points = []  # (x, weights, test error) of the method's entries, first data set and condition, repetition 0
    first = None
    for row in read_rows(path):
        if row["method"] not in figure["labels"] or row["rep"] != "0" or row["status"] not in SOLVED:
            continue
        first = first or (row["dataset"], row["condition"])
        if (row["dataset"], row["condition"]) == first:
            points.append((float(row[figure["x"]]), model_of(row)[0], 1.0 - float(row["accuracy"])))
    if len(points) < 2:
        raise PlotError(f"{path}: fewer than two solved fits of {figure['method']} in repetition 0 to draw a path")
    points.sort(key=lambda point: point[0])
    xs = [point[0] for point in points]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6, 6), sharex=True, height_ratios=[2, 1])
    for j in range(len(points[0][1])):
        top.plot(xs, [point[1][j] for point in points], marker=".", label=f"w{j + 1}", **line_style(j))
    top.axhline(0.0, color="grey", linewidth=0.5)
    top.set_ylabel(f"{figure['method']}: coefficients")
    top.legend(fontsize=6, ncol=2)
    bottom.plot(xs, [point[2] for point in points], marker="o", color="black")
    bottom.set_ylabel("test error")
    bottom.set_xlabel(figure["x"])
    if min(xs) > 0:
        bottom.set_xscale("log")
    top.set_title(f"{first[0]}" + (f" {first[1]}" if first[1] not in ("", "none") else "") + ", repetition 0",
                  fontsize=8)
    return fig


def plot_boundary(directory, figure, spec):
    points_path = os.path.join(directory, "boundary_points.csv")
    points = read_rows(points_path)
    if not points or len(points[0]) != 5:
        raise PlotError(f"{points_path}: a boundary figure needs a data set with two features")
    dataset = (points[0]["dataset"], points[0]["condition"])
    xs = [(float(p["x1"]), float(p["x2"]), float(p["y"])) for p in points]
    results = os.path.join(directory, "results.csv")
    rows = {row["method"]: row for row in read_rows(results)
            if row["method"] in figure["labels"] and row["rep"] == "0" and row["status"] in SOLVED
            and (row["dataset"], row["condition"]) == dataset}
    if not rows:
        raise PlotError(f"{results}: no solved fit of {', '.join(figure['labels'])} on {dataset[0]} in repetition 0")
    fig, ax = plt.subplots(figsize=(6, 5))
    for label, marker in ((1.0, "o"), (-1.0, "+")):
        ax.scatter([p[0] for p in xs if p[2] == label], [p[1] for p in xs if p[2] == label], marker=marker,
                   facecolors="none" if marker == "o" else None, edgecolors="C0" if marker == "o" else None,
                   color=None if marker == "o" else "C1", label=f"y = {label:+.0f}")
    low, high = min(p[0] for p in xs), max(p[0] for p in xs)
    lines = [(label, *model_of(rows[label])) for label in figure["labels"] if label in rows]
    if figure.get("bayes_line"):
        w1, w2, b = figure["bayes_line"]
        lines.insert(0, ("Bayes rule", [w1, w2], b))
    for k, (label, w, b) in enumerate(lines):
        draw_line(ax, label, w, b, low, high, line_style(k + 2))
    for label in figure["labels"]:
        if label not in rows:
            ax.plot([], [], " ", label=f"{label}: no solved fit")
    mark_restricted(ax, figure["labels"], rows, xs, results, spec)
    ax.set_ylim(min(p[1] for p in xs) - 0.1, max(p[1] for p in xs) + 0.1)
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
    ax.legend(fontsize=7)
    return fig


def draw_line(ax, label, w, b, low, high, style):
    """w[0] x1 + w[1] x2 + b = 0 across [low, high] in x1 (a vertical line when w[1] = 0)."""
    if abs(w[1]) > 1e-12:
        ax.plot([low, high], [-(w[0] * low + b) / w[1], -(w[0] * high + b) / w[1]], label=label, **style)
    elif abs(w[0]) > 1e-12:
        ax.axvline(-b / w[0], label=label, **style)
    else:
        ax.plot([], [], " ", label=f"{label}: w = 0, no boundary")


def model_of(row):
    return [float(v) for v in row["weights"].split(";")], float(row["bias"])


def restrict_margin(row):
    """The restrict_margin among a row's solver options ("a=1;restrict_margin=1.1"), or 0."""
    for option in row["solver_options"].split(";"):
        name, _, value = option.partition("=")
        if name == "restrict_margin":
            return float(value)
    return 0.0


def mark_restricted(ax, labels, rows, xs, results, spec):
    """Crosses the points a restricted psi label fixed when its start is the first label's fit (the same
    method, at the row's start_C); otherwise says in the legend why they are not shown."""
    first = rows.get(labels[0])
    for label in labels[1:]:
        row = rows.get(label)
        if not row or restrict_margin(row) <= 0:
            continue
        same_start = (first is not None and spec["starts"].get(label) == spec["names"].get(labels[0])
                      and first.get("C") and row.get("start_C") and float(row["start_C"]) == float(first["C"]))
        if not same_start:
            ax.plot([], [], " ", label=f"{label}: fixed points not shown (its start is not {labels[0]}'s fit)")
            continue
        w, b = model_of(first)
        fixed = [p for p in xs if p[2] * (w[0] * p[0] + w[1] * p[1] + b) > restrict_margin(row)]
        if len(fixed) != round(float(row["mip_fixed_examples"])):
            raise PlotError(f"{results}: {len(fixed)} points beyond {restrict_margin(row)} under {labels[0]}, but "
                            f"{label} fixed {row['mip_fixed_examples']}")
        ax.scatter([p[0] for p in fixed], [p[1] for p in fixed], marker="x", color="red", s=12,
                   label=f"fixed to region 3 by {label}")
        return


def plot_critical_difference(directory, figure):
    ranks = read_rows(os.path.join(directory, f"ranks_{figure['metric']}.csv"))
    path = os.path.join(directory, "friedman.csv")
    tests = [row for row in read_rows(path) if row["metric"] == figure["metric"]]
    if not ranks or not tests or tests[0]["critical_difference"] == "":
        raise PlotError(f"{path}: no Friedman test of {figure['metric']} (fewer than two data sets with every method?)")
    test = tests[0]
    # Only the ranked methods; those apart (unproven rows) have no mean rank and are named in the caption.
    ranked = sorted((float(row["mean_rank"]), row["method"]) for row in ranks if row.get("ranked", "yes") == "yes")
    cd = float(test["critical_difference"])
    k = len(ranked)
    # Cliques (Demsar 2006, Fig. 1): each maximal run of consecutive methods whose ranks span less than the
    # critical difference; drawn as thick bars below the axis, the labels below them.
    cliques = []
    for first in range(k):
        last = first
        while last + 1 < k and ranked[last + 1][0] - ranked[first][0] < cd:
            last += 1
        if last > first and (not cliques or last > cliques[-1][1]):
            cliques.append((first, last))
    top_label = -(0.25 * len(cliques) + 0.6)
    half = (k + 1) // 2
    fig, ax = plt.subplots(figsize=(8, 1.6 + 0.22 * half + 0.06 * len(cliques)))
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(top_label - (half + 1) * 0.9, 2.2)
    ax.axis("off")
    ax.hlines(0, 1, k, color="black")
    for r in range(1, k + 1):
        ax.vlines(r, 0, 0.25, color="black")
        ax.text(r, 0.35, str(r), ha="center", va="bottom", fontsize=7)
    ax.hlines(1.4, 1, 1 + cd, color="black", linewidth=1.5)  # the critical difference, to scale
    ax.text(1 + cd / 2, 1.55, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=7)
    for bar, (first, last) in enumerate(cliques, start=1):
        ax.hlines(-0.25 * bar, ranked[first][0] - 0.05, ranked[last][0] + 0.05, color="black", linewidth=3)
    # Labels: the better half to the left, the rest to the right, one line each, joined to their rank.
    for index, (rank, method) in enumerate(ranked):
        left = index < half
        depth = top_label - (index if left else k - 1 - index) * 0.9
        edge = 0.6 if left else k + 0.4
        ax.plot([rank, rank, edge], [0, depth, depth], color="gray", linewidth=0.6)
        ax.text(edge - 0.05 if left else edge + 0.05, depth, f"{method} ({rank:.2f})", ha="right" if left else "left",
                va="center", fontsize=6)
    p_value = float(test["p_value"])
    significant = p_value < float(test["alpha"])
    caption = [f"mean rank of {figure['metric']} ({test['better']} is better) over {test['datasets']} data sets; "
               f"Friedman p = {p_value:.2g}"
               + ("" if significant else f" (not significant at {test['alpha']}: no difference is established)")
               + (f"; dropped: {test['dropped']}" if test["dropped"] else "")]
    if test.get("statuses"):
        caption.append(f"ranked rows: {test['statuses']}")
    if test.get("apart"):
        caption.append(f"not ranked (unproven rows; tables.comparisons.include_unproven ranks them): {test['apart']}")
    # Wrapped here, not by matplotlib, so that the layout knows the caption's height and the figure grows with it.
    lines = [line for paragraph in caption for line in textwrap.wrap(paragraph, 150)]
    fig.set_figheight(fig.get_figheight() + 0.14 * len(lines))
    ax.set_title("\n".join(lines), fontsize=7)
    return fig


def make_figure(directory, figure, spec):
    """The matplotlib figure of one entry of figures.json (not yet titled or saved)."""
    if figure["kind"] == "convergence":
        return plot_convergence(directory, figure)
    if figure["kind"] == "metric_by_condition":
        return plot_metric_by_condition(directory, figure, spec["methods"])
    if figure["kind"] == "metric_by_dataset":
        return plot_metric_by_dataset(directory, figure, spec["methods"])
    if figure["kind"] == "objective_trace":
        return plot_objective_trace(directory, figure)
    if figure["kind"] == "coefficient_path":
        return plot_coefficient_path(directory, figure)
    if figure["kind"] == "boundary":
        return plot_boundary(directory, figure, spec)
    if figure["kind"] == "validation_curve":
        return plot_validation_curve(directory, figure, spec["methods"])
    if figure["kind"] == "metric_by_parameter":
        return plot_metric_by_parameter(directory, figure)
    if figure["kind"] == "critical_difference":
        return plot_critical_difference(directory, figure)
    if figure["kind"] == "race":
        return plot_race(directory, figure)
    raise PlotError(f"{os.path.join(directory, 'figures.json')}: unknown figure kind '{figure['kind']}'")


def read_spec(directory):
    spec_path = os.path.join(directory, "figures.json")
    if not os.path.exists(spec_path):
        raise PlotError(f"{spec_path}: not found; the config lists no figures, or collect has not run")
    with open(spec_path) as f:
        return json.load(f)


def write_index(directory, spec, titled):
    rows = "\n".join(f'<h2>{html.escape(title)}</h2>\n<img src="{html.escape(file)}" alt="{html.escape(title)}">'
                     for file, title in titled)
    page = (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(spec['config'])}</title></head>\n"
            f"<body>\n<h1>{html.escape(spec['config'])}</h1>\n{rows}\n</body></html>\n")
    path = os.path.join(directory, "index.html")
    with open(path, "w") as f:
        f.write(page)
    return path


def draw(directory):
    spec = read_spec(directory)
    written, titled = [], []
    for figure in spec["figures"]:
        fig = make_figure(directory, figure, spec)
        title = figure["title"] or f"{spec['config']}: {figure['file']}"
        fig.suptitle(title, fontsize=10)
        # Room for the title on top and for a figure-level legend (metric_by_condition) on the right.
        legend_width = 1.5 / fig.get_figwidth() if fig.legends else 0.0
        fig.tight_layout(rect=(0, 0, 1 - legend_width, 0.96))
        out = os.path.join(directory, figure["file"])
        fig.savefig(out, dpi=120)
        plt.close(fig)
        written.append(out)
        titled.append((figure["file"], title))
    written.append(write_index(directory, spec, titled))
    return written


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 1
    try:
        for directory in argv[1:]:
            for path in draw(directory):
                print(path)
    except (PlotError, KeyError, ValueError) as error:
        print(f"plot: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
