# `np.array(x, ndmin=k)` prepends ones up to rank k: a (1, 2) generator matrix (scikit-commpy's
# 802.11 code builds `np.array((133, 171), ndmin=2)`) does not broadcast against 3 values.
# Before `ndmin` was modelled, the array was taken as 1-d.
import numpy as np

generator = np.array((133, 171), ndmin=2)
k, n = generator.shape
weights = generator + np.zeros(3)
