import numpy as np
mats = [np.eye(n) for n in range(1, 4)]
prod = mats[1] @ mats[2]
