import numpy as np
v = -3
w = abs(v)
x = np.zeros((w, 2))
if isinstance(v, int):
    y = x.T @ x
