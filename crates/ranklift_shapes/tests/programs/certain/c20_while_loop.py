import numpy as np
h = np.zeros((4, 4))
k = 0
while k < 3:
    h = h @ np.eye(4)
    k += 1
out = h @ np.ones((3,))
