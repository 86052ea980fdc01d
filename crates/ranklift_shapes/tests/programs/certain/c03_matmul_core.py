import numpy as np
w = np.random.randn(784, 128)
x = np.random.randn(32, 748)
h = x @ w
