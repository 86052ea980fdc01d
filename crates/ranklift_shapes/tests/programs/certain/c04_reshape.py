import numpy as np
img = np.zeros((28, 28))
flat = img.reshape(-1)
bad = flat.reshape(27, -1)
