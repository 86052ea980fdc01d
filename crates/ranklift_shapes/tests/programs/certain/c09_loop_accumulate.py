import numpy as np
acc = np.zeros((3,))
for i in range(4):
    acc = acc + np.ones((3,)) * i
total = acc + np.ones((4,))
