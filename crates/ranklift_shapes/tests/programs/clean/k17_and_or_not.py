import numpy as np
x = np.zeros((3, 3))
flag = not (x.ndim == 3)
y = flag and x @ np.ones(3)
z = (x.shape[0] == 3 or x.shape[1] == 4) and x.T @ x
