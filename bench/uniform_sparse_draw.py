"""Issue 37's own 2000 x 20000 draw, written as a LIBSVM file: values uniform on [0, 1) in 0.5% of the
cells (scipy.sparse.random, seed 0), labels the sign of a Gaussian weighting of the first 50 features
(about 78% of the rows have none of them, so their labels are the tie-breaking noise: a separable set
whose 1-norm SVM optimum at lambda 1 keeps about 1860 features and as many examples on the margin).
Usage: /usr/bin/python3 bench/uniform_sparse_draw.py OUT.libsvm"""
import sys

import numpy as np
import scipy.sparse as sp

rng = np.random.default_rng(0)
x = sp.random(2000, 20000, density=0.005, format="csr", random_state=0)
score = x[:, :50] @ rng.standard_normal(50) + 1e-9 * rng.standard_normal(2000)
labels = np.where(score > 0, 1, -1)
with open(sys.argv[1], "w") as out:
    for i in range(x.shape[0]):
        start, end = x.indptr[i], x.indptr[i + 1]
        order = np.argsort(x.indices[start:end])
        items = " ".join(f"{x.indices[start + k] + 1}:{x.data[start + k]:.17g}" for k in order)
        out.write(f"{labels[i]} {items}\n")
