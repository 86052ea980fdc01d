import numpy as np
a = np.zeros((3, 2))
b = np.zeros((4, 1))
c = np.hstack([a, b])
