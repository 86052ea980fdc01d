import numpy as np
x = np.zeros((8, 1, 3))
y = np.ones((5, 1))
z = x + y  # (8,5,3)
w = z * 2.0 - np.arange(3)
