"""A least-squares step whose normal equations are built with the wrong product (astropy's
lombscargle `periodic_fit` shape): `X @ X.T` is (n, n), the right-hand side has p entries."""
import numpy as np

t = np.linspace(0, 10, 30)
X = np.vstack([np.ones_like(t), np.sin(t), np.cos(t), np.sin(2 * t), np.cos(2 * t)]).T
y = np.sin(t)
theta = np.linalg.solve(np.dot(X, X.T), np.dot(X.T, y))
