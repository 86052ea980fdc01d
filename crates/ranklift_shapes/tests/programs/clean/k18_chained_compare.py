import numpy as np
n = 5
if 0 < n <= 10:
    x = np.zeros((n, n))
else:
    x = np.zeros((n, n + 1))
y = x @ x
