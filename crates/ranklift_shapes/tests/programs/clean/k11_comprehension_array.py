import numpy as np
rows = [[i * j for j in range(4)] for i in range(3)]
m = np.array(rows)
v = m @ np.ones(4)
