"""DST200: a NumPy program; there is nothing for Horovod's TensorFlow API to distribute."""
import numpy as np

w = np.zeros(3)
for _ in range(10):
    w -= 0.1 * (w - 1.0)
print(w)
