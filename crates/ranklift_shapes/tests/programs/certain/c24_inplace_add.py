import numpy as np
a = np.zeros((3,))
a += np.ones((3,))
a += np.ones((2, 3))
