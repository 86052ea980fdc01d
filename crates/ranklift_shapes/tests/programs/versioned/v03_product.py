"""`np.product` (a deprecated alias of `np.prod`) is gone in NumPy 2: a plain AttributeError."""
import numpy as np

sizes = np.array([2, 3, 4])
print(np.product(sizes))
