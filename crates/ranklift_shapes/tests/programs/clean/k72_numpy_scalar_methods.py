# NumPy scalars are numbers with the array API: a reduction's or a norm's result has
# `.astype`, `.item`, `.shape` (scikit-fem's penalty: `1e-10 / np.linalg.norm(d, np.inf).astype(float)`).
import numpy as np

d = np.array([3.0, -4.0, 1.0])
epsilon = 1e-10 / np.linalg.norm(d, np.inf).astype(float)
total = d.sum().item()
peak = np.max(np.abs(d))
print(epsilon, total, peak.shape, peak.ndim, np.mean(d).round(2))
