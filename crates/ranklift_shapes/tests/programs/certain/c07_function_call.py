import numpy as np

def dense(x, w, b):
    return x @ w + b

w = np.zeros((10, 4))
b = np.zeros(4)
out = dense(np.ones((8, 10)), w, b)
out2 = dense(out, w, b)
