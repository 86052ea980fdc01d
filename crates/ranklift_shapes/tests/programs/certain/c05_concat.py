import numpy as np
a = np.ones((4, 3))
b = np.ones((4, 5))
c = np.concatenate([a, b], axis=0)
