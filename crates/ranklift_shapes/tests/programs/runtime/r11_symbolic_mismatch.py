# inputs: 3 4 | 3 3
import sys
import numpy as np
n = int(sys.argv[1])
m = int(sys.argv[2])
a = np.ones((n, 2))
b = np.ones((m, 2))
c = a + b
