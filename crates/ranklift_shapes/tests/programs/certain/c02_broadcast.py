import numpy as np
a = np.zeros((2, 3))
b = np.ones((3, 2))
c = a + b
