import numpy as np
x = np.zeros((2, 2))
y = np.arcos(x)
