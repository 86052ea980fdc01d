"""Arrays drawn from a `Generator` have the requested shape; `np.linalg.norm` over an axis the
array lacks is an AxisError (an injected `axis` bug in pymoo's decomposition helper)."""
import numpy as np

rng = np.random.default_rng(4)
F = rng.random((10, 3))
weights = rng.normal(0.0, 1.0, size=(10, 3))
d1 = (F * weights).sum(axis=1) / np.linalg.norm(weights, axis=2)
