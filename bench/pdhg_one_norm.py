#!/usr/bin/python3
"""A first-order method on OneNormSVM's LP, to measure how far it gets where the simplex struggles (issue 37:
the hard-margin end of the Reuters-shaped C grid; docs/benchmarks.md, "Why that end is hard").

The LP min lambda ||w||_1 + sum_i xi_i, y_i (x_i.w + b) + xi_i >= 1, xi >= 0 as the saddle problem
    min_{w, b} max_{0 <= alpha <= 1}  lambda ||w||_1 + sum_i alpha_i (1 - y_i (x_i.w + b)),
solved by primal-dual hybrid gradient (Chambolle and Pock) with the diagonal step sizes of Pock and Chambolle
(2011: tau_j = 1 / sum_i |K_ij|, sigma_i = 1 / sum_j |K_ij|, K the rows y_i (x_i, 1)), restarts to the
average or the current iterate, whichever has the smaller gap, when that gap has fallen by 5x since the
last restart (or the average is long), and
a primal weight moved toward the ratio of dual to primal movement between restarts (as PDLP does). Each
iteration costs two products with X: O(nnz), nothing dense.

Every `report` iterations it prints the primal objective P (xi = max(0, 1 - margin), so P is a true
objective value), a dual bound D (alpha shifted so that sum_i y_i alpha_i = 0, then scaled so that
|X'(alpha y)|_inf <= lambda: a feasible point of the LP's dual, so D <= the optimum <= P), the relative gap
(P - D) / P, and the number of nonzero weights. Nothing here certifies more than that gap.

With SAVE given, the last iterate goes there as text, one number a line: b, then the d weights, then the n
multipliers alpha_i (the seed that `clp_crossover` reads).

Usage: pdhg_one_norm.py FILE LAMBDA ITERATIONS [REPORT_EVERY [N_FEATURES [SAVE]]]
"""
import sys
import time

import numpy as np
import scipy.sparse
from sklearn.datasets import load_svmlight_file

if len(sys.argv) < 4:
    sys.exit(__doc__)
path, lam, iterations = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
report_every = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
n_features = int(sys.argv[5]) if len(sys.argv) > 5 else None
save_path = sys.argv[6] if len(sys.argv) > 6 else None
x, y = load_svmlight_file(path, n_features=n_features)
y = np.where(y == y.max(), 1.0, -1.0)  # the larger label is +1, as sparsesvm reads labels
yx = (scipy.sparse.diags(y) @ x.tocsr()).tocsr()
yx_t = yx.T.tocsr()
n, d = yx.shape


def margins(w, b):
    return yx @ w + y * b


def primal(w, b):
    return lam * np.abs(w).sum() + np.maximum(0.0, 1.0 - margins(w, b)).sum()


def dual_bound(alpha):
    """sum_i alpha_i at a dual feasible point made from alpha."""
    alpha = alpha.copy()
    excess = y @ alpha  # must be 0: shrink the larger class's multipliers
    side = y > 0 if excess > 0 else y < 0
    if excess != 0 and alpha[side].sum() > 0:
        alpha[side] *= max(0.0, 1.0 - abs(excess) / alpha[side].sum())
    largest = np.abs(yx_t @ alpha).max()
    return (min(1.0, lam / largest) if largest > 0 else 1.0) * alpha.sum()


def relative_gap(w, b, alpha):
    p = primal(w, b)
    return (p - dual_bound(alpha)) / max(1.0, abs(p))


def soft_threshold(v, t):
    return np.sign(v) * np.maximum(np.abs(v) - t, 0.0)


absolute = abs(yx)
column_sums = np.asarray(absolute.sum(axis=0)).ravel()
column_sums[column_sums == 0] = 1.0
bias_column_sum = float(n)
row_sums = np.asarray(absolute.sum(axis=1)).ravel() + 1.0
eta = 0.95
primal_weight = 1.0

w, b, alpha = np.zeros(d), 0.0, np.zeros(n)
sum_w, sum_b, sum_alpha, averaged = np.zeros(d), 0.0, np.zeros(n), 0
restart_w, restart_b, restart_alpha = w.copy(), b, alpha.copy()
restart_gap = relative_gap(w, b, alpha)
start = time.process_time()
print(f"n {n}, d {d}, nonzeros {yx.nnz}, lambda {lam}")
for k in range(1, iterations + 1):
    tau = eta / primal_weight / column_sums
    tau_b = eta / primal_weight / bias_column_sum
    sigma = eta * primal_weight / row_sums
    w_next = soft_threshold(w + tau * (yx_t @ alpha), tau * lam)
    b_next = b + tau_b * (y @ alpha)
    alpha = np.clip(alpha + sigma * (1.0 - margins(2 * w_next - w, 2 * b_next - b)), 0.0, 1.0)
    w, b = w_next, b_next
    sum_w += w
    sum_b += b
    sum_alpha += alpha
    averaged += 1
    if k % 64 == 0:
        average = (sum_w / averaged, sum_b / averaged, sum_alpha / averaged)
        gap_current, gap_average = relative_gap(w, b, alpha), relative_gap(*average)
        candidate, gap = (average, gap_average) if gap_average < gap_current else ((w, b, alpha), gap_current)
        if gap < 0.2 * restart_gap or averaged >= 0.36 * k:
            moved_primal = np.sqrt(np.linalg.norm(candidate[0] - restart_w) ** 2 + (candidate[1] - restart_b) ** 2)
            moved_dual = np.linalg.norm(candidate[2] - restart_alpha)
            if moved_primal > 1e-10 and moved_dual > 1e-10:
                primal_weight = np.sqrt(primal_weight * moved_dual / moved_primal)
            w, b, alpha = candidate[0].copy(), candidate[1], candidate[2].copy()
            restart_w, restart_b, restart_alpha, restart_gap = w.copy(), b, alpha.copy(), gap
            sum_w, sum_b, sum_alpha, averaged = np.zeros(d), 0.0, np.zeros(n), 0
    if k % report_every == 0:
        p, bound = primal(w, b), dual_bound(alpha)
        print(f"iteration {k}: cpu {time.process_time() - start:.1f} s, P {p:.7f}, D {bound:.7f}, "
              f"relative gap {(p - bound) / max(1.0, abs(p)):.2e}, nonzero weights {(w != 0).sum()}", flush=True)
if save_path:
    np.savetxt(save_path, np.concatenate(([b], w, alpha)), fmt="%.17g")
