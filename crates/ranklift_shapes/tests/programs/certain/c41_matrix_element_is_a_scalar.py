"""Elements of a 2-d array are NumPy scalars: a row where an element was meant is a sequence
stored into one element (scikit-image's `_moments_raw_to_central_fast` shape)."""
import numpy as np

m = np.arange(16, dtype=float).reshape(4, 4) + 1.0
central = np.zeros_like(m)
cx = m[1, 0] / m[0, 0]
central[0, 0] = m[0, 0]
central[1, 1] = m[1] - cx * m[0, 1]
