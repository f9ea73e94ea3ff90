#!/usr/bin/python3
"""Measures the bias of a config's grid: how much the minimum tuning error over the grid exceeds the
minimum over a grid twice as dense, against the standard error of a published cell.

Selecting a parameter by the smallest tuning (or CV) error over a coarse grid reports a tuning error that
is too high: a denser grid finds a lower minimum on the same samples. A paper that states only a range
("C in [1e-3, 1e3]") leaves the grid to us, and our grid is fine enough when that bias is below the
cell's standard error.

Usage:
  scripts/grid_bias.py CONFIG PARAMETER [OVERRIDES...] [--replications N]

Runs CONFIG (with OVERRIDES) twice on the same samples: with its grid of PARAMETER (grid.PARAMETER), and
with the log-midpoints of that grid added. Per data set, condition and method that tunes PARAMETER it
prints the mean paired difference of the tuning error (1 - cv_accuracy) and of the test error, and the
standard error of a cell over N replications (default 100, the paper's), sd(tuning error) / sqrt(N).
Exit status 1 when some tuning-error bias is positive and not below that standard error, 0 otherwise, 2 on a run that cannot answer (a data set with its own method_grid of PARAMETER, which
the override of grid.PARAMETER does not reach; fewer than 2 replications; no method tuning PARAMETER).
The binary is $SPARSESVM or build/sparsesvm.
"""
import argparse
import csv
import math
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def refuse(message):
    """A run that cannot answer: exit status 2, apart from 1 (too coarse)."""
    print(f"grid_bias: {message}", file=sys.stderr)
    sys.exit(2)


def run(binary, config, overrides, directory):
    subprocess.run([binary, "run", config, *overrides, "--out", directory, "-j", str(os.cpu_count() or 1), "-q",
                    "--no-figures"], check=True)


def read_rows(directory):
    with open(Path(directory) / "results.csv", newline="") as stream:
        return list(csv.DictReader(stream))


def grid_values(directory, parameter):
    """The values of `parameter` the run's inner selection saw, per (data set, condition)."""
    values = defaultdict(set)
    path = Path(directory) / "cv_scores.csv"
    if path.exists():
        with open(path, newline="") as stream:
            for row in csv.DictReader(stream):
                if row.get(parameter, ""):
                    values[(row["dataset"], row["condition"])].add(float(row[parameter]))
    return {key: sorted(found) for key, found in values.items()}


def the_grid(by_dataset, parameter):
    """The one grid every data set searched; exits when there is none or data sets search their own."""
    if not by_dataset:
        refuse(f"no method of the run tunes '{parameter}' (cv_scores.csv has no values of it)")
    grids = {tuple(values) for values in by_dataset.values()}
    if len(grids) > 1:
        refuse(f"the data sets search different grids of '{parameter}' (a method_grid), which an override "
                 f"of grid.{parameter} does not reach; measure one data set at a time with its own grid")
    grid = list(grids.pop())
    if len(grid) < 2:
        refuse(f"the grid of '{parameter}' has one value; there is nothing between values to refine")
    return grid


def with_midpoints(values):
    dense = list(values)
    for low, high in zip(values, values[1:]):
        dense.append(math.sqrt(low * high))  # the midpoint in log scale
    return sorted(dense)


def paired_bias(coarse_rows, fine_rows, replications):
    key = lambda row: (row["dataset"], row["condition"], row["method"], row["rep"])
    fine = {key(row): row for row in fine_rows}
    cells = defaultdict(lambda: {"tune": [], "test": [], "tune_error": []})
    for row in coarse_rows:
        if not row["cv_accuracy"]:
            continue  # a method that tunes nothing has no tuning error
        partner = fine[key(row)]
        cell = cells[(row["dataset"], row["condition"], row["method"])]
        cell["tune"].append(float(partner["cv_accuracy"]) - float(row["cv_accuracy"]))  # coarse error - fine error
        cell["test"].append(float(partner["accuracy"]) - float(row["accuracy"]))
        cell["tune_error"].append(1 - float(row["cv_accuracy"]))
    results = []
    for (dataset, condition, method), cell in sorted(cells.items()):
        if len(cell["tune_error"]) < 2:
            refuse("a cell needs at least 2 replications for its standard error")
        se = statistics.stdev(cell["tune_error"]) / math.sqrt(replications)
        label = dataset if condition in ("", "none") else f"{dataset} {condition}"
        results.append((label, method, statistics.fmean(cell["tune"]), statistics.fmean(cell["test"]), se))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config")
    parser.add_argument("parameter")
    parser.add_argument("--replications", type=int, default=100)
    parser.add_argument("overrides", nargs="*")
    arguments = parser.parse_intermixed_args()  # --replications before or after the overrides
    binary = os.environ.get("SPARSESVM", str(ROOT / "build" / "sparsesvm"))
    with tempfile.TemporaryDirectory() as scratch:
        coarse = os.path.join(scratch, "coarse")
        run(binary, arguments.config, arguments.overrides, coarse)
        values = the_grid(grid_values(coarse, arguments.parameter), arguments.parameter)
        dense = with_midpoints(values)
        fine = os.path.join(scratch, "fine")
        grid = "[" + ", ".join(repr(value) for value in dense) + "]"
        run(binary, arguments.config, [*arguments.overrides, f"grid.{arguments.parameter}={grid}"], fine)
        if any(found != dense for found in grid_values(fine, arguments.parameter).values()):
            refuse(f"the dense grid did not reach every data set (a method_grid of '{arguments.parameter}')")
        results = paired_bias(read_rows(coarse), read_rows(fine), arguments.replications)
    print(f"{arguments.parameter}: {len(values)} values against {len(dense)}; standard error over "
          f"{arguments.replications} replications")
    print(f"{'data set':<24} {'method':<16} {'tune bias':>10} {'test bias':>10} {'cell SE':>8}  verdict")
    too_coarse = False
    for label, method, tune_bias, test_bias, se in results:
        fine_enough = tune_bias <= 0 or tune_bias < se  # no lower minimum between the values, or below the SE
        too_coarse |= not fine_enough
        print(f"{label:<24} {method:<16} {tune_bias:>10.4f} {test_bias:>10.4f} {se:>8.4f}  "
              f"{'fine enough' if fine_enough else 'too coarse'}")
    return 1 if too_coarse else 0


if __name__ == "__main__":
    sys.exit(main())
