#!/usr/bin/python3
"""The 1-norm SVM LP of OneNormSVM (min lambda ||w||_1 + sum_i xi_i, y_i (x_i.w + b) + xi_i >= 1, xi >= 0) on
data exported by generation_bench --export, solved by HiGHS through scipy (Debian's python3-scipy), as a
user without sparsesvm would. Prints one line per lambda, in the format of generation_bench.
Usage: highs_one_norm.py PREFIX LAMBDA[,LAMBDA...] TIME_LIMIT_SECONDS
"""
import sys
import time

import numpy as np
import scipy.optimize
import scipy.sparse

prefix, lambdas, time_limit = sys.argv[1], [float(v) for v in sys.argv[2].split(",")], float(sys.argv[3])
y = np.fromfile(prefix + ".y")
x = np.fromfile(prefix + ".x").reshape(len(y), -1)
n, d = x.shape
# Variables [w+ (d), w- (d), b, xi (n)]; rows -(y_i x_i (w+ - w-) + y_i b + xi_i) <= -1.
yx = scipy.sparse.csr_matrix(y[:, None] * x)
a_ub = scipy.sparse.hstack([-yx, yx, scipy.sparse.csr_matrix(-y[:, None]), -scipy.sparse.identity(n)], format="csr")
b_ub = -np.ones(n)
bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
total = 0.0
for lam in lambdas:
    c = np.concatenate([np.full(2 * d, lam), [0.0], np.ones(n)])
    start = time.perf_counter()
    result = scipy.optimize.linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs",
                                    options={"time_limit": time_limit})
    seconds = time.perf_counter() - start
    total += seconds
    w = result.x[:d] - result.x[d:2 * d] if result.x is not None else np.zeros(d)
    print(f"HiGHS lambda={lam} status={result.status}:{result.message.split('.')[0]} objective={result.fun} "
          f"seconds={seconds:.3f} features={int(np.count_nonzero(np.abs(w) > 1e-9))}", flush=True)
print(f"total seconds={total:.3f}")
