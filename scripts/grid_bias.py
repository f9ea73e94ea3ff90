#!/usr/bin/python3
"""Measures the bias of a config's grid: how much the minimum tuning error over the grid exceeds the
minimum over a grid twice as dense, against the standard error of a published cell.

Selecting a parameter by the smallest tuning (or CV) error over a coarse grid reports a tuning error that
is too high: a denser grid finds a lower minimum on the same samples. A paper that states only a range
("C in [1e-3, 1e3]") leaves the grid to us, and our grid is fine enough when that bias is below the
cell's standard error.

Usage:
  scripts/grid_bias.py CONFIG PARAMETER [--replications N] [OVERRIDES...]

Runs CONFIG (with OVERRIDES) twice on the same samples: with its grid of PARAMETER, and with the
log-midpoints of that grid added. Per data set condition and method it prints the mean paired
difference of the tuning error (1 - cv_accuracy) and of the test error, and the standard error of a
cell over N replications (default 100, the paper's), sd(tuning error) / sqrt(N). Exit status 1 when
some tuning-error bias is not below that standard error, 0 otherwise. The binary is $SPARSESVM or
build/sparsesvm.
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


def run(binary, config, overrides, directory):
    subprocess.run([binary, "run", config, *overrides, "--out", directory, "-j", str(os.cpu_count() or 1), "-q",
                    "--no-figures"], check=True)


def read_rows(directory):
    with open(Path(directory) / "results.csv", newline="") as stream:
        return list(csv.DictReader(stream))


def grid_values(rows, parameter):
    """The grid of `parameter` the run searched: every value a row's inner selection saw."""
    values = set()
    with open(Path(rows) / "cv_scores.csv", newline="") as stream:
        for row in csv.DictReader(stream):
            if row.get(parameter, ""):
                values.add(float(row[parameter]))
    if not values:
        sys.exit(f"grid_bias: the run tuned no parameter '{parameter}' (cv_scores.csv has no values of it)")
    return sorted(values)


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
        partner = fine[key(row)]
        cell = cells[(row["condition"] or row["dataset"], row["method"])]
        cell["tune"].append(float(partner["cv_accuracy"]) - float(row["cv_accuracy"]))  # coarse error - fine error
        cell["test"].append(float(partner["accuracy"]) - float(row["accuracy"]))
        cell["tune_error"].append(1 - float(row["cv_accuracy"]))
    results = []
    for (condition, method), cell in sorted(cells.items()):
        se = statistics.stdev(cell["tune_error"]) / math.sqrt(replications)
        results.append((condition, method, statistics.fmean(cell["tune"]), statistics.fmean(cell["test"]), se))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config")
    parser.add_argument("parameter")
    parser.add_argument("--replications", type=int, default=100)
    parser.add_argument("overrides", nargs="*")
    arguments = parser.parse_args()
    binary = os.environ.get("SPARSESVM", str(ROOT / "build" / "sparsesvm"))
    with tempfile.TemporaryDirectory() as scratch:
        coarse = os.path.join(scratch, "coarse")
        run(binary, arguments.config, arguments.overrides, coarse)
        values = grid_values(coarse, arguments.parameter)
        dense = with_midpoints(values)
        fine = os.path.join(scratch, "fine")
        grid = "[" + ", ".join(repr(value) for value in dense) + "]"
        run(binary, arguments.config, [*arguments.overrides, f"grid.{arguments.parameter}={grid}"], fine)
        results = paired_bias(read_rows(coarse), read_rows(fine), arguments.replications)
    print(f"{arguments.parameter}: {len(values)} values against {len(dense)}; standard error over "
          f"{arguments.replications} replications")
    print(f"{'condition':<20} {'method':<16} {'tune bias':>10} {'test bias':>10} {'cell SE':>8}  verdict")
    too_coarse = False
    for condition, method, tune_bias, test_bias, se in results:
        fine_enough = tune_bias < se
        too_coarse |= not fine_enough
        print(f"{condition:<20} {method:<16} {tune_bias:>10.4f} {test_bias:>10.4f} {se:>8.4f}  "
              f"{'fine enough' if fine_enough else 'too coarse'}")
    return 1 if too_coarse else 0


if __name__ == "__main__":
    sys.exit(main())
