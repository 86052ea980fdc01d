import numpy as np
import sys
n = len(sys.argv) + 3
x = np.random.rand(n, 7)
g = x.dot(x.T)
h = g + np.eye(n)
