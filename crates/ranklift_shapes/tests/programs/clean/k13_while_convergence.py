import numpy as np
x = np.ones(5)
A = np.eye(5) * 0.5
delta = 1.0
while delta > 1e-6:
    nx = A @ x
    delta = float(np.abs(nx - x).max())
    x = nx
