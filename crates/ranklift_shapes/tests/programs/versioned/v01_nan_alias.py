"""`np.NaN` was an alias of `np.nan` until NumPy 2.0 removed it (NumPy 2 says so itself)."""
import numpy as np

x = np.linspace(0.0, 1.0, 5)
x[2] = np.NaN
print(np.nanmean(x))
