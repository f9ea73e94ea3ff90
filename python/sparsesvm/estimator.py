"""SparseSVC: every method of sparsesvm's registry as a scikit-learn classifier.

The constructor takes `method` (a registry name such as "OneNormSVM", "RLSVM0", "ADMM-SCAD", "FSV") and
one keyword per parameter name of any method's table (`sparsesvm.methods()`), `lambda` spelled `lam`;
None leaves a parameter at its method's default. A parameter set to a value that the chosen method does
not take is a ValueError at fit, as are NaN, a y without exactly two classes, and an unknown method.

Labels: any two classes; `classes_[1]` is the +1 class of the core, `classes_[0]` the -1 class. The
decision function is X @ coef_ + intercept_; as in the command line, a decision of exactly 0 predicts
classes_[1]. Dense arrays and scipy.sparse CSR or CSC matrices are passed without densifying (CSC is
converted to CSR, still sparse). The fit releases the GIL.

After fit: coef_ (1, n_features), intercept_ (1,), classes_, n_features_in_ (and feature_names_in_ for a
DataFrame), fit_report_ (status, objective, message, stop_reason, iterations, inner_iterations,
inner_solves, seconds, parameters as used, statistics with the certificates, text_statistics,
objective_trace, certificate and certificate_kind). optimal (a convex objective's duality gap or a closed
MIP gap) and converged (a certified stationary point of a nonconvex objective) are what the methods
promise; feasible and solved_inaccurate are a ConvergenceWarning naming the status and what it promises;
a fit without a solution is a RuntimeError.
random_state: an integer seed for the methods with random starts (FSV); None is seed 0, so that fits are
reproducible by default.
verbose: True prints the fit's progress to sys.stderr as it goes, the lines of the command line's `fit -v`
(each method's fit beginning and ending, objective trace entries, LP generation rounds, Clp's status every
1000 simplex iterations, branch-and-bound nodes...), each after the seconds since the fit began; the fit
computes the same either way. The core has one progress sink per process: while a verbose fit runs, a fit
beside it in another thread prints too, and the seconds count from the first verbose fit running. A Ctrl-C
during a verbose fit is raised when the fit returns, as without verbose (its later lines are dropped).

Weights: fit(X, y, sample_weight=s) and class_weight (None, "balanced" = n / (2 * count of the class), or a
dict {class label: weight}) multiply each example's loss by s_i times its class's weight, in every method;
the methods' averages (FSV's and RLP's per-class means, ADMM's mean hinge) become weighted means, so an
integer weight equals that many copies of the example and a zero weight its removal, certificates included.
Weights must be finite and >= 0, each class with a positive total (a ValueError otherwise). RLP and FSV
average their loss per class, so a class weight would cancel: class_weight is a ValueError for them.
"""
import keyword
import warnings

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _core

_METHODS = {method["name"]: method for method in _core.methods()}


def python_name(parameter):
    """The keyword of a parameter: its table name, or `lam` for lambda (a Python keyword)."""
    return "lam" if parameter == "lambda" else parameter


def _parameter_names():
    names = []
    for method in _METHODS.values():
        for parameter in method["parameters"]:
            if parameter["name"] not in names:
                names.append(parameter["name"])
    for name in names:
        if keyword.iskeyword(python_name(name)) or not python_name(name).isidentifier():
            raise ImportError(f"parameter {name!r} has no legal Python name")
    return names


_PARAMETERS = _parameter_names()  # table names, in order of first appearance

# What a status short of its method's promise means (docs/user-guide.md, "Statuses and certificates"); each is a ConvergenceWarning.
# optimal and converged (a stationary point certified by its convex majorant's gap) are not.
_STATUS_MEANINGS = {
    "feasible": "a solution whose optimality or stationarity is not proven (a limit stopped the search, or "
                "RW(N)'s walk was truncated)",
    "solved_inaccurate": "the solver's answer misses its tolerance; the best model is kept",
}


def _lam_per_method():
    """The docstring's table: what lam multiplies in each method, and its range (from the registry)."""
    lines = ["", "What lam is, per method (the losses are summed, averaged per class, or averaged: lam's scale",
             "differs, so a grid for one method does not carry over to another):"]
    for name, method in _METHODS.items():
        spec = next((p for p in method["parameters"] if p["name"] == "lambda"), None)
        if spec is None:
            lines.append(f"  {name}: no lam (C weighs the losses; see sparsesvm.methods())")
        else:
            lines.append(f"  {name}: {spec['description']}; range {spec['range']}, default {spec['default']:g}")
    return "\n".join(lines) + "\n"


class SparseSVC(ClassifierMixin, BaseEstimator):
    __doc__ = __doc__ + _lam_per_method()

    def _more_tags(self):
        return {"binary_only": True}

    def _core_parameters(self):
        """The parameters given (not None), by table name; ValueError for one the method does not take."""
        if self.method not in _METHODS:
            hint = _core.closest_name(self.method, list(_METHODS)) if isinstance(self.method, str) else None
            raise ValueError(f"unknown method {self.method!r}" + (f"; did you mean {hint!r}?" if hint else "")
                             + " (sparsesvm.methods() lists them)")
        takes = {p["name"] for p in _METHODS[self.method]["parameters"]}
        given = {}
        for name in _PARAMETERS:
            value = getattr(self, python_name(name))
            if value is None:
                continue
            if name not in takes:
                raise ValueError(f"{self.method} has no parameter {python_name(name)!r}; it takes "
                                 + ", ".join(python_name(p) for p in sorted(takes)))
            if np.ndim(value) != 0:
                raise ValueError(f"{python_name(name)}={value!r} is not a single number")
            if isinstance(value, (bool, np.bool_)):
                value = float(value)
            if isinstance(value, str):  # a choice's name (lp_form="generation") or a switch's "true"
                given[name] = _core.parameter_value(name, value)
                continue
            try:
                given[name] = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"{python_name(name)}={value!r} is not a number") from None
        return given

    def _seed(self):
        """The core's seed: random_state itself when it is an integer in [0, 2**64); None is 0 (fits are
        reproducible by default, unlike scikit-learn's None); a RandomState draws one."""
        if self.random_state is None:
            return 0
        if isinstance(self.random_state, (int, np.integer)) and 0 <= self.random_state < 2**64:
            return int(self.random_state)
        return int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))

    def _example_weights(self, X, y, sample_weight):
        """s_i: sample_weight times the class weight of y_i; None when both are None (every s_i = 1)."""
        if sample_weight is None and self.class_weight is None:
            return None
        weights = _check_sample_weight(sample_weight, X, dtype=np.float64, copy=True)
        if self.class_weight is not None:
            if isinstance(self.class_weight, str) and self.class_weight != "balanced":
                raise ValueError(f"class_weight={self.class_weight!r}: expected None, 'balanced' or a dict "
                                 "{class label: weight}")
            if _METHODS[self.method]["class_weight_refusal"]:
                raise ValueError(f"class_weight: {_METHODS[self.method]['class_weight_refusal']}")
            weights *= compute_sample_weight(self.class_weight, y)
        if not np.all(np.isfinite(weights)) or np.any(weights < 0):
            bad = int(np.flatnonzero(~(np.isfinite(weights) & (weights >= 0)))[0])
            raise ValueError(f"sample_weight[{bad}] = {weights[bad]!r}: weights must be finite and >= 0")
        for label in self.classes_:
            with np.errstate(over="ignore"):  # a sum past the largest double is refused by the core, naming it
                total = weights[y == label].sum()
            if not total > 0:
                raise ValueError(f"sample_weight: class {label!r} has total weight 0; every class needs a positive weight")
        return weights

    def fit(self, X, y, sample_weight=None):
        given = self._core_parameters()
        X, y = self._validate_data(X, y, accept_sparse=["csr", "csc"], dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(f"SparseSVC is a binary classifier: y has {len(self.classes_)} class"
                             f"{'' if len(self.classes_) == 1 else 'es'}, it needs 2")
        signed = np.where(y == self.classes_[1], 1.0, -1.0)
        weights = self._example_weights(X, y, sample_weight)
        if scipy.sparse.issparse(X):
            X = X.tocsr()
            report = _core.fit_csr(self.method, given, X.data, X.indices, X.indptr, X.shape[0], X.shape[1], signed,
                                   self._seed(), weights, bool(self.verbose))
        else:
            report = _core.fit_dense(self.method, given, X, signed, self._seed(), weights, bool(self.verbose))
        if not report["has_solution"]:
            raise RuntimeError(f"{self.method}: no solution ({report['status']}): {report['message']}")
        # RW(N)'s walk is truncated by design: feasible, with its inner SVMs' gap, is what it promises.
        truncated_walk = report["status"] == "feasible" and report["certificate_kind"] == "inner_svm_gap"
        if report["status"] in _STATUS_MEANINGS and not truncated_walk:
            meaning = _STATUS_MEANINGS.get(report["status"], "")
            warnings.warn(f"{self.method} ended with status {report['status']}" + (f" ({meaning})" if meaning else "")
                          + (f": {report['message']}" if report["message"] else "")
                          + (f" (stopped: {report['stop_reason']})" if report["stop_reason"] else ""),
                          ConvergenceWarning)
        self.coef_ = np.asarray(report.pop("coef")).reshape(1, -1)
        self.intercept_ = np.array([report.pop("intercept")])
        self.fit_report_ = report
        return self

    def decision_function(self, X):
        check_is_fitted(self)
        X = self._validate_data(X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=False)
        return np.asarray(X @ self.coef_.ravel()).ravel() + self.intercept_[0]

    def predict(self, X):
        decision = self.decision_function(X)  # first: it raises NotFittedError before classes_ exists
        return self.classes_[(decision >= 0).astype(int)]


def _make_init():
    """SparseSVC.__init__ with one keyword per parameter: scikit-learn reads parameters from the signature."""
    arguments = ", ".join(f"{python_name(name)}=None" for name in _PARAMETERS)
    body = "\n".join(f"    self.{python_name(name)} = {python_name(name)}" for name in _PARAMETERS)
    source = (f"def __init__(self, method='OneNormSVM', *, {arguments}, class_weight=None, random_state=None, "
              f"verbose=False):\n"
              f"    self.method = method\n{body}\n    self.class_weight = class_weight\n"
              f"    self.random_state = random_state\n    self.verbose = verbose\n")
    namespace = {}
    exec(source, namespace)  # noqa: S102  (names come from the registry, checked to be identifiers)
    return namespace["__init__"]


SparseSVC.__init__ = _make_init()
SparseSVC.__init__.__qualname__ = "SparseSVC.__init__"
