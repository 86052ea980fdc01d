import numpy as np
x = np.zeros((5,))
y = np.expand_dims(x, 0)
z = np.expand_dims(y, 3)
