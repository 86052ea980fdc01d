# `ndmin` makes a 0-d value 1-d and a 1-d one 2-d; indexing them as such is fine (scikit-commpy
# indexes `array(0, float, ndmin=1)[0]` and `array((133, 171), ndmin=2)[i, j]`).
import numpy as np

metrics = np.array(0, float, ndmin=1)
generator = np.array((133, 171), ndmin=2)
already = np.array([[1, 2]], ndmin=1)
print(metrics[0], generator[0, 1], already[0, 1], generator.shape[1] + metrics.shape[0])
