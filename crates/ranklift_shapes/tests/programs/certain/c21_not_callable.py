import numpy as np
shape = (2, 3)
x = np.zeros(shape)
n = x.size
m = n()
