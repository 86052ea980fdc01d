import numpy as np

def normalize(x):
    mu = x.mean(axis=0)
    return x - mu

def scale(x, s):
    return x * s

data = normalize(np.random.rand(100, 8))
out = scale(data, np.ones((100,)))
