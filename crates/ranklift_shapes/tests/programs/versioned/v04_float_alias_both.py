"""`np.float` was removed in NumPy 1.24 already: both versions fail, with the same words."""
import numpy as np

weights = np.ones(3, dtype=np.float)
