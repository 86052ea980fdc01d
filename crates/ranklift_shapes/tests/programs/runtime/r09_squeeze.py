# inputs: 1 | 2
import sys
import numpy as np
b = int(sys.argv[1])
x = np.zeros((b, 5))
y = np.squeeze(x, axis=0)
