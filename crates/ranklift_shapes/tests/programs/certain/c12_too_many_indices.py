import numpy as np
v = np.arange(5)
w = v[1:3]
u = w[0, 1]
