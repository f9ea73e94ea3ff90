"""sparsesvm: sparse linear classifiers of five papers on sparse SVMs, over a C++ core with certificates.

    from sparsesvm import SparseSVC
    clf = SparseSVC(method="RLSVM0", lam=0.5).fit(X, y)   # any registry method; `lam` is lambda
    clf.coef_, clf.intercept_, clf.fit_report_["status"]

    sparsesvm.methods()            every method with its parameter table
    sparsesvm.load(path, **opts)   a data file read by the command line's loaders (X, y, feature_names)
    sparsesvm.read_run(directory)  a run directory's results.csv (or another table) as a pandas DataFrame
    sparsesvm.score(metric, decisions, labels)   a selection metric (protocol.inner.metric, fit --scoring)
"""
from collections import namedtuple
import csv
import os

import numpy as np
import scipy.sparse

from . import _core
from .estimator import SparseSVC, python_name

__all__ = ["SparseSVC", "methods", "load", "read_run", "score", "metrics", "Data"]
__version__ = "0.1.0"

Data = namedtuple("Data", ["X", "y", "feature_names", "name"])


def score(metric, decisions, labels):
    """The score `metric` (one of metrics()) of decision values against labels -1 / +1, as model selection
    computes it: a decision >= 0 predicts +1; roc_auc is NaN when the labels have one class."""
    return _core.score(metric, np.asarray(decisions, dtype=float), np.asarray(labels, dtype=float))


def metrics():
    """The metrics model selection can optimize: accuracy, error_rate, balanced_accuracy, f1, roc_auc."""
    return list(_core.metrics())


def methods():
    """Every registered method: name, citation, loss, penalty, algorithm, start, weighting (how the losses
    are summed), class_weight_refusal (why class weights cannot apply, or ""), lam (what lambda multiplies
    and its range; None for a method without lambda, such as the C-parametrized SVM-C) and its parameter
    table (name, python_name, description, default, range, kind, integer), by method name."""
    table = {}
    for method in _core.methods():
        method["lam"] = None
        for parameter in method["parameters"]:
            parameter["python_name"] = python_name(parameter["name"])
            if parameter["name"] == "lambda":
                method["lam"] = f"{parameter['description']}; range {parameter['range']}, default {parameter['default']:g}"
        table[method["name"]] = method
    return table


def load(path, format="auto", **options):
    """A data file as the command line reads it (formats delimited, libsvm, nips2003; loader options as
    keywords, e.g. positive="M", missing="drop_row", label_column=0, header=True). X is a dense array, or a
    CSR matrix when the loader stores the data sparse (a LIBSVM or NIPS file too large dense under
    storage="automatic"; storage="sparse" forces it); y holds +1 and -1."""
    def text(value):
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    raw = _core.load(os.fspath(path), format, {key: text(value) for key, value in options.items()})
    if "dense" in raw:
        X = np.array(raw["dense"])
    else:
        X = scipy.sparse.csr_matrix((raw["data"], raw["indices"], raw["indptr"]), shape=raw["shape"])
    return Data(X, np.array(raw["y"]), list(raw["feature_names"]), raw["name"])


def read_run(directory, table="results"):
    """A collected run directory's table as a pandas DataFrame: results (one row per task), summary,
    cv_scores (every inner score), weights (with keep: [weights]) or a table_<metric>."""
    import pandas  # only this function needs it

    path = os.path.join(os.fspath(directory), table if table.endswith(".csv") else f"{table}.csv")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: not found (run `sparsesvm collect {directory}` first?)")
    with open(path, newline="") as f:
        header = next(csv.reader(f), [])
    # Text columns stay text (condition "none", status), whatever pandas would guess from their values.
    text = {name: str for name in header if name in ("dataset", "condition", "method", "status", "message",
                                                      "stop_reason", "solver_options", "objective_trace", "feature")}
    return pandas.read_csv(path, dtype=text, keep_default_na=False, na_values=[""])
