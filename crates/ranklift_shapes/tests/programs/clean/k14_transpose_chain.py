import numpy as np
t = np.zeros((2, 3, 4, 5))
u = t.transpose(3, 0, 1, 2)
v = np.swapaxes(u, 0, 3)
w = v.reshape(2, 3, -1) @ np.ones((20, 1))
