import numpy as np
n = 10
half = n / 2
x = np.zeros((half, 2))
