"""`np.random.randint` and friends return integers, usable as sizes (real-code false alarm:
E017 'float' object cannot be interpreted as an integer)."""
import numpy as np

n = np.random.randint(2, 100)
X = np.random.rand(n, 3)
k = np.random.binomial(10, 0.5) + np.random.poisson(3) + 1
Y = np.zeros((k, 2))
pick = np.random.choice(["a", "b"])
print(X.shape[1], Y.shape[1], pick in ("a", "b"))
