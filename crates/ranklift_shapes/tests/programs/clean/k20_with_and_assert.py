import numpy as np
with np.errstate(divide="ignore"):
    r = np.log(np.zeros((2, 2)))
assert r.shape == (2, 2)
s = r + np.ones((1, 2))
