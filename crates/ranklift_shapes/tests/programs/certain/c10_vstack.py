import numpy as np
rows = [np.zeros(3), np.ones(3), np.arange(4)]
m = np.vstack(rows)
