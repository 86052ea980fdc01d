"""`np.linalg.vecdot` is new in NumPy 2.0 (the array API's vector dot product)."""
import numpy as np


def norms(v):
    return np.sqrt(np.linalg.vecdot(v, v))


print(norms(np.ones((4, 3))))
