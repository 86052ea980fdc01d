import numpy as np
x = np.zeros((2, 3, 4))
y = x.transpose(0, 2, 1)
z = np.transpose(y, (0, 1, 1))
