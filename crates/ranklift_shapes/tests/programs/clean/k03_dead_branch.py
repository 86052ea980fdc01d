import numpy as np
DEBUG = False
a = np.zeros((3, 4))
if DEBUG:
    a = a @ np.zeros((5, 5))
b = a @ np.zeros((4, 2))
