import numpy as np
x = np.zeros((3, 4))
col = x[:, 2]
v = x[1, 4]
