import numpy as np
grid = np.zeros((4, 3))
grid[0] = np.ones(3)
grid[1] = np.ones(4)
