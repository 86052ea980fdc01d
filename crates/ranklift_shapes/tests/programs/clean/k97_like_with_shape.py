"""A Newton solver sizes its coefficients from the design matrix's columns with
`np.zeros_like(X, shape=n_dof)` and its Hessian with `np.empty_like(coef, shape=(n_dof,
n_dof))`; the directional derivative of its step is a scalar it tests."""

import numpy as np

X = np.ones((50, 3))
n_dof = X.shape[1] + 1
coef = np.zeros_like(X, shape=n_dof)
hessian = np.eye(n_dof)
gradient = np.full_like(coef, 0.5)
step = np.linalg.solve(hessian, -gradient)
slope = gradient @ step
if slope > 0:
    print("not a descent direction")
print(np.ones_like(X, shape=(2,)).shape, slope)
