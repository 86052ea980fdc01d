import numpy as np
a = np.zeros((2, 3))
try:
    b = a @ a
except ValueError:
    b = a @ a.T
c = b + np.eye(2)
