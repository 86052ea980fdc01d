"""A Newton solver sizes its coefficients from the design matrix's columns with
`np.zeros_like(X, shape=n_dof)` and its Hessian with `np.empty_like(coef, shape=(n_dof,
n_dof))`; the step solves against a gradient one entry short."""

import numpy as np

X = np.ones((50, 3))
n_dof = X.shape[1] + 1
coef = np.zeros_like(X, shape=n_dof)
hessian = np.empty_like(coef, shape=(n_dof, n_dof))
gradient = np.ones(n_dof - 1)
step = hessian @ gradient
print(step.shape)
