import numpy as np
x = np.arange(24)
y = x.reshape(2, -1, 4)
z = y.reshape((-1,))
w = z.reshape(4, 6).T
