"""`np.concat` is new in NumPy 2.0: code written for NumPy 2 fails on 1.x."""
import numpy as np

a = np.ones((2, 3))
b = np.concat([a, a])
print(b.shape)
