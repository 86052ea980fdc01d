"""`ndarray.ptp` was removed from the ndarray class in NumPy 2.0 (`np.ptp(a)` remains)."""
import numpy as np


def spread(a):
    return a.ptp(axis=0)


print(spread(np.arange(6).reshape(2, 3)))
