#!/usr/bin/python3
"""Draws the figures of a collected run: the `figures:` list of its config, which `sparsesvm collect` (and
`run`) writes to DIR/figures.json, from DIR/summary.csv and DIR/convergence.csv. Each figure becomes
DIR/<file> (PNG). Figure kinds:

  convergence          [RW] Fig. 2: worst, mean, true mean and true median of (F_t - F*) / F* per
                       iteration, log scale (convergence.csv)
  metric_by_condition  a metric's mean over the outer splits (error bars: one standard deviation)
                       against a generator grid parameter, one line per method in config order;
                       as_error plots 1 - metric (summary.csv)
  metric_by_dataset    a metric's mean (error bars: one standard deviation) as grouped bars: one group
                       per data set and condition, one bar per method in config order (summary.csv)

Usage: scripts/plot.py DIR [DIR ...]      (Debian's python3 and python3-matplotlib)
Exit 1 with a message naming the file when a directory has no figures.json or lacks the data a figure
needs.
"""
import csv
import json
import os
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
    path = os.path.join(directory, "summary.csv")
    rows = [row for row in read_rows(path) if row["metric"] == figure["metric"]]
    fig, ax = plt.subplots(figsize=(6, 4))
    drawn = 0
    all_x = []
    for method in methods:
        # One line per method and per value of the other condition parameters (never mixed).
        lines = {}
        for row in rows:
            x, rest = split_condition(row["condition"], figure["x"])
            if row["method"] != method or x is None or row["mean"] in ("", "nan"):
                continue
            mean = float(row["mean"])
            std = float(row["std"]) if row["std"] not in ("", "nan") else 0.0
            lines.setdefault((row["dataset"], rest), []).append((x, 1.0 - mean if figure["as_error"] else mean, std))
        for (dataset, rest), points in sorted(lines.items()):
            points.sort()
            all_x += [p[0] for p in points]
            label = method + (f" ({rest})" if rest else "") + (f" [{dataset}]" if len(lines) > 1 and not rest else "")
            ax.errorbar([p[0] for p in points], [p[1] for p in points], yerr=[p[2] for p in points], marker="o",
                        capsize=3, label=label)
            drawn += 1
    if drawn == 0:
        raise PlotError(f"{path}: no rows of metric {figure['metric']} with a condition on {figure['x']}")
    if min(all_x) > 0 and max(all_x) / min(all_x) >= 20:
        ax.set_xscale("log")
    ax.set_xlabel(figure["x"])
    ax.set_ylabel(("error (1 - " + figure["metric"] + ")") if figure["as_error"] else figure["metric"])
    ax.legend()
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


def draw(directory):
    spec_path = os.path.join(directory, "figures.json")
    if not os.path.exists(spec_path):
        raise PlotError(f"{spec_path}: not found; the config lists no figures, or collect has not run")
    with open(spec_path) as f:
        spec = json.load(f)
    written = []
    for figure in spec["figures"]:
        if figure["kind"] == "convergence":
            fig = plot_convergence(directory, figure)
        elif figure["kind"] == "metric_by_condition":
            fig = plot_metric_by_condition(directory, figure, spec["methods"])
        elif figure["kind"] == "metric_by_dataset":
            fig = plot_metric_by_dataset(directory, figure, spec["methods"])
        else:
            raise PlotError(f"{spec_path}: unknown figure kind '{figure['kind']}'")
        title = figure["title"] or f"{spec['config']}: {figure['file']}"
        fig.suptitle(title, fontsize=10)
        fig.tight_layout()
        out = os.path.join(directory, figure["file"])
        fig.savefig(out, dpi=120)
        plt.close(fig)
        written.append(out)
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
