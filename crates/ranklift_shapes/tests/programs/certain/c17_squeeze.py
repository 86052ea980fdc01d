import numpy as np
x = np.zeros((1, 3, 1))
y = np.squeeze(x, axis=2)
z = np.squeeze(y, axis=1)
