"""An array loaded from a pickle (unknown to the analysis) reshaped with -1: no finding."""
import pickle

import numpy as np

blob = pickle.dumps(np.zeros(56))
x = pickle.loads(blob)
print(np.reshape(x, (-1, 28)).shape)
