import numpy as np
acc = np.zeros((0, 3))
for i in range(5):
    acc = np.concatenate([acc, np.ones((1, 3))])
total = acc.sum(axis=0) + np.ones(3)
