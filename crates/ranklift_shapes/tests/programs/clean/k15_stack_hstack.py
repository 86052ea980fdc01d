import numpy as np
a = np.zeros((4,))
b = np.ones((4,))
s = np.stack([a, b], axis=1)
h = np.hstack([a, b])
v = np.vstack([a, b])
c = s.T - v
