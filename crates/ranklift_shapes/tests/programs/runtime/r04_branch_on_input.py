# inputs: a | b
import sys
import numpy as np
if sys.argv[1] == "a":
    x = np.zeros((2, 3))
else:
    x = np.zeros((3, 2))
y = x @ np.ones((3, 1))
