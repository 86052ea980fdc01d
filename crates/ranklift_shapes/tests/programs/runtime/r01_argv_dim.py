# inputs: 3 | 4
import sys
import numpy as np
n = int(sys.argv[1])
a = np.zeros((n,))
b = a + np.ones((3,))
