#!/usr/bin/python3
"""The Python package's cost over the command line's, and one comparison with scikit-learn's LinearSVC.

1. The same fit through `sparsesvm fit -g SPEC` (its reported fit seconds, time_s, which exclude reading the
   data) and through SparseSVC.fit (wall time of the call: input checks, the copy into the core, the fit):
   median of 5 each, interleaved; the ratio is what the Python layer costs.
2. OneNormSVM (the l1-penalized hinge loss by LP, certified) against LinearSVC(penalty='l1',
   loss='squared_hinge', dual=False) on standardized sonar: 10-fold CV accuracy and features over a grid of
   their regularization weights, and fit time.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [build/sparsesvm]
Writes the tables to standard output (bench/python_results.txt keeps one run).
"""
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

import sparsesvm

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build", "sparsesvm")
REPEATS = 5

PROBLEMS = [  # (generator spec, method, parameters by table name)
    ("dca_gaussians:n=4000,noise_dims=190,seed=2", "OneNormSVM", {"lambda": 1.0}),
    ("dca_gaussians:n=20000,noise_dims=90,seed=2", "SVM", {"lambda": 1.0}),
    ("dca_gaussians:n=2000,noise_dims=90,flip_fraction=0.1,seed=2", "RLSVM0", {"lambda": 1.0}),
    ("sparse_categorical:n=5000,d=2000,attributes=200,seed=2", "OneNormSVM", {"lambda": 1.0}),
]


def cli_seconds(spec, method, parameters):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "row.csv")
        flags = [f"--{name}={value}" for name, value in parameters.items()]
        subprocess.run([BINARY, "fit", "-g", spec, "-m", method, *flags, "--out", out], check=True, capture_output=True)
        return float(next(csv.DictReader(open(out)))["time_s"])


def python_seconds(data, method, parameters):
    keywords = {sparsesvm.estimator.python_name(name): value for name, value in parameters.items()}
    start = time.perf_counter()
    sparsesvm.SparseSVC(method=method, **keywords).fit(data.X, data.y)
    return time.perf_counter() - start


def overhead():
    print("1. SparseSVC.fit (wall) against `sparsesvm fit` (time_s), median of", REPEATS)
    print(f"{'problem':<34} {'CLI fit s':>10} {'Python s':>10} {'ratio':>7}")
    for spec, method, parameters in PROBLEMS:
        data = sparsesvm.load(spec, format="generator")
        kind = "sparse" if hasattr(data.X, "tocsr") else "dense"
        label = f"{method}, {data.X.shape[0]} x {data.X.shape[1]} {kind}"
        cli, python = [], []
        for _ in range(REPEATS):
            cli.append(cli_seconds(spec, method, parameters))
            python.append(python_seconds(data, method, parameters))
        c, p = statistics.median(cli), statistics.median(python)
        print(f"{label:<34} {c:>10.3f} {p:>10.3f} {p / c:>7.3f}")


def against_linear_svc():
    data = sparsesvm.load(os.path.join(REPO, "datasets", "sonar.csv"))
    folds = StratifiedKFold(10, shuffle=True, random_state=0)
    print("\n2. sonar (208 x 60), standardized in each fold, 10-fold CV: OneNormSVM (LP, lambda) against "
          "LinearSVC(penalty='l1', loss='squared_hinge', dual=False, C)")
    print(f"{'model':<34} {'accuracy':>9} {'features':>9} {'fit s':>8}")
    candidates = [(f"OneNormSVM lambda={lam:g}", sparsesvm.SparseSVC(method="OneNormSVM", lam=lam))
                  for lam in (0.1, 1.0, 10.0)]
    candidates += [(f"LinearSVC C={c:g}", LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=c, max_iter=10000))
                   for c in (0.01, 0.1, 1.0)]
    for label, model in candidates:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            scores = cross_validate(make_pipeline(StandardScaler(), model), data.X, data.y, cv=folds,
                                    return_estimator=True)
        features = [int(np.sum(np.abs(fitted[-1].coef_) > 1e-6)) for fitted in scores["estimator"]]
        print(f"{label:<34} {scores['test_score'].mean():>9.3f} {statistics.mean(features):>9.1f} "
              f"{scores['fit_time'].mean():>8.4f}")


if __name__ == "__main__":
    overhead()
    against_linear_svc()
