# A test in NumPy's style: each result is compared with `np.testing` (imported both ways)
# before the next step uses what was compared, the list of layer weights included. The second
# step applies the first layer again: (8, 3) @ (5, 3).
import numpy as np
from numpy.testing import assert_array_equal

rng = np.random.default_rng(0)
x = rng.normal(size=(8, 5))
centred = x - x.mean(axis=0)
np.testing.assert_allclose(centred.mean(axis=0), np.zeros(5), atol=1e-12)
assert_array_equal(centred.shape, (8, 5))
weights = [rng.normal(size=(5, 3)), rng.normal(size=(3, 2))]
np.testing.assert_equal(weights, [w.copy() for w in weights])
hidden = centred @ weights[0]
print((hidden @ weights[0]).shape)
