import numpy as np
x = np.random.rand(10, 4)
mu = x.mean(axis=0, keepdims=True)
sd = x.std(axis=0, keepdims=True)
z = (x - mu) / sd
r = x / x.sum(axis=1, keepdims=True)
