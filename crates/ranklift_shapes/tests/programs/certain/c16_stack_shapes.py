import numpy as np
batch = [np.zeros((2, 2)) for _ in range(3)]
batch.append(np.zeros((2, 3)))
t = np.stack(batch)
