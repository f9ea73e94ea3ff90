"""Issue 37's own 2000 x 20000 draw, written as a LIBSVM file: values uniform on [0, 1) in 0.5% of the
cells (scipy.sparse.random, seed 0), labels the sign of a Gaussian weighting of the first 50 features
(about 78% of the rows have none of them, so their labels are the tie-breaking noise: a separable set
whose 1-norm SVM optimum at lambda 1 keeps about 1860 features and as many examples on the margin).
Other shapes by arguments, the same recipe: N D DENSITY LABEL_FEATURES. With a last argument `presence`
a row's label is +1 when it has any of the first LABEL_FEATURES features, else -1: 1000 4000 0.04 5
presence is a draw where generation stalls at lambda 3 and the basis the crossover guesses is thousands
of iterations from the optimum, against hundreds from the slack basis (docs/benchmarks.md, "Hand-over").
Usage: /usr/bin/python3 bench/uniform_sparse_draw.py OUT.libsvm [N D DENSITY LABEL_FEATURES [presence]]"""
import sys

import numpy as np
import scipy.sparse as sp

n, d, density, label_features = (int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])) \
    if len(sys.argv) > 2 else (2000, 20000, 0.005, 50)
rng = np.random.default_rng(0)
x = sp.random(n, d, density=density, format="csr", random_state=0)
score = x[:, :label_features] @ rng.standard_normal(label_features) + 1e-9 * rng.standard_normal(n)
if sys.argv[6:] == ["presence"]:
    score = x[:, :label_features].getnnz(axis=1) - 0.5
labels = np.where(score > 0, 1, -1)
with open(sys.argv[1], "w") as out:
    for i in range(x.shape[0]):
        start, end = x.indptr[i], x.indptr[i + 1]
        order = np.argsort(x.indices[start:end])
        items = " ".join(f"{x.indices[start + k] + 1}:{x.data[start + k]:.17g}" for k in order)
        out.write(f"{labels[i]} {items}\n")
