# inputs: 2 | 3
import sys
import numpy as np
d = int(sys.argv[1])
parts = [np.zeros((2, 2)), np.zeros((2, d))]
s = np.stack(parts)
