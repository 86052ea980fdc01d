import numpy as np
x = np.arange(60).reshape(3, 4, 5)
a = x[0]
b = x[:, 1:3, ::2]
c = x[..., None]
d = x[-1, -1, -1]
e = b + np.zeros((3, 2, 3))
f = c[:, :, :, 0] - x
