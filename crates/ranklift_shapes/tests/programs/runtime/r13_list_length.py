# inputs: 3 | 2
import sys
import numpy as np
items = []
for i in range(int(sys.argv[1])):
    items.append(np.ones(2))
m = np.array(items)
v = m.T @ np.ones(3)
