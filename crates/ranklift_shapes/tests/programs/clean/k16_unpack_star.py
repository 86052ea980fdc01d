import numpy as np
first, *rest = [np.zeros((2, 2)), np.ones((2, 2)), np.eye(2)]
total = first + sum(rest)
a, (b, c) = 1, (2, 3)
x = np.zeros((a, b, c)).squeeze(0)
