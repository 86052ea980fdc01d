import numpy as np
from helpers_shapes import make_weights

w = make_weights(5, 3)
x = np.ones((2, 5))
y = x @ w @ w
