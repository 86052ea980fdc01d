# inputs: 2 | 3
import sys
import numpy as np
reps = int(sys.argv[1])
x = np.ones((2,))
for _ in range(reps):
    x = np.concatenate([x, x])
y = x + np.ones((8,))
