#!/usr/bin/python3
"""OneNormSVM's LP (min lambda ||w||_1 + sum_i xi_i, y_i (x_i.w + b) + xi_i >= 1, xi >= 0) on a LIBSVM file,
kept sparse, solved by HiGHS through scipy (Debian's python3-scipy), as a user without sparsesvm would.
Prints "objective F, status S, cpu C s", then, when there is a solution, the shape of the optimum: weights
with |w_j| > 1e-9, examples with xi_i > 1e-9, examples with a margin within 1e-7 of 1, training accuracy.
Usage: highs_libsvm_one_norm.py FILE LAMBDA TIME_LIMIT_SECONDS [METHOD [N_FEATURES]]
  METHOD: highs (HiGHS's own choice, the default), highs-ipm (interior point, then crossover) or highs-ds
  (dual simplex); scipy's other linprog methods take no sparse matrix or no time limit.
  N_FEATURES: the number of columns (a LIBSVM file does not say how many trailing features are all zero).
"""
import sys
import time

import numpy as np
import scipy.optimize
import scipy.sparse
from sklearn.datasets import load_svmlight_file

METHODS = ("highs", "highs-ipm", "highs-ds")
if len(sys.argv) < 4 or (len(sys.argv) > 4 and sys.argv[4] not in METHODS):
    sys.exit(__doc__)
path, lam, time_limit = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
method = sys.argv[4] if len(sys.argv) > 4 else "highs"
n_features = int(sys.argv[5]) if len(sys.argv) > 5 else None
x, y = load_svmlight_file(path, n_features=n_features)
n, d = x.shape
# Variables [w+ (d), w- (d), b, xi (n)]; rows -(y_i x_i (w+ - w-) + y_i b + xi_i) <= -1.
yx = scipy.sparse.diags(y) @ x.tocsr()
a_ub = scipy.sparse.hstack([-yx, yx, scipy.sparse.csr_matrix(-y[:, None]), -scipy.sparse.identity(n)], format="csc")
c = np.concatenate([np.full(2 * d, lam), [0.0], np.ones(n)])
bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
start = time.process_time()
result = scipy.optimize.linprog(c, A_ub=a_ub, b_ub=-np.ones(n), bounds=bounds, method=method,
                                options={"time_limit": time_limit})
print(f"objective {result.fun}, status {result.status} ({result.message.split('.')[0]}), cpu {time.process_time() - start:.2f} s")
if result.x is not None:
    w = result.x[:d] - result.x[d:2 * d]
    xi = result.x[2 * d + 1:]
    margins = y * (x @ w + result.x[2 * d])
    print(f"nonzero weights {(np.abs(w) > 1e-9).sum()}, xi > 0 {(xi > 1e-9).sum()}, "
          f"on the margin {(np.abs(margins - 1) < 1e-7).sum()}, training accuracy {(margins > 0).mean():.4f}")
