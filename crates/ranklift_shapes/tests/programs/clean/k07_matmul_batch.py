import numpy as np
a = np.ones((6, 2, 3))
b = np.ones((3, 5))
c = a @ b
v = np.ones(3)
d = a @ v
