# The negative side of clean/k51: a 1-d array is no scalar, and has no `is_integer`.
import numpy as np

x = np.sqrt(np.arange(4.0))
whole = x.is_integer()
