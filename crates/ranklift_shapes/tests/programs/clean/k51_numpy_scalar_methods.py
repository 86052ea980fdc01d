# A ufunc on Python numbers returns a NumPy scalar, not an array: `np.sqrt(16)` is a
# `numpy.float64`, a subclass of `float`, so it has `is_integer` (nevergrad's IOH wrapper asserts
# `np.sqrt(dim).is_integer()`), which `ndarray` lacks.
import numpy as np

dim = 16
assert np.sqrt(dim).is_integer()
ratio = np.float64(2.5).as_integer_ratio()
print(ratio, np.sum([1.5, 2.0]).is_integer())
