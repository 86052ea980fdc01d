import numpy as np
x = np.zeros((5, 2))
m = x.mean(axis=1)
s = m.sum(axis=1)
