import numpy as np
sizes = [3, 5, 2]
biggest = max(sizes)
buf = np.zeros((len(sizes), biggest))
for i, n in enumerate(sizes):
    buf[i, :n] = np.ones(n)
out = buf @ np.ones(biggest)
