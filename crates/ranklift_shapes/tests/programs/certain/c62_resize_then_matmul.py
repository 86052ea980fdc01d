# `np.resize(a, new_shape)` has `new_shape` (cma's BBOB functions tile `xopt` to the population's
# shape this way): the product below is a certain error.
import numpy as np

pop = np.resize(np.arange(5.0), (3, 5))
scores = pop @ np.ones((4, 2))
