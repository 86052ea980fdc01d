import numpy as np
x = np.zeros((6, 2))
rows, cols = x.shape
y = x.reshape(cols, rows)
z = y + np.zeros((rows, cols))
