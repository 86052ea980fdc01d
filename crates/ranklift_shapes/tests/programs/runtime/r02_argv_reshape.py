# inputs: 6 | 5
import sys
import numpy as np
n = int(sys.argv[1])
x = np.arange(n)
y = x.reshape(2, 3)
