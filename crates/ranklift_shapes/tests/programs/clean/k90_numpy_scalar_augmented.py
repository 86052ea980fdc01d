# A NumPy function of Python numbers returns a NumPy scalar (np.float64), which `-=` replaces
# rather than writes into: broadcasting it with a (3,) array is fine.
import numpy as np

llf = -3 * np.log(2.0 * np.pi)
llf -= 2 * np.log(1 + np.sum(np.ones((3, 4)) ** 2, -1))
assert llf.shape == (3,)
