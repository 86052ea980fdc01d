# A dict whose entries a library call may change: what it held before is not what it holds.
import json

import numpy as np

sizes = {"n": 3}
sizes.update(json.loads('{"n": 4}'))
params = {"n": 3}
json.loads("{}", object_hook=lambda d: params.update(n=4) or d)
a = np.zeros(sizes["n"]) + np.zeros(4)
b = np.zeros(params["n"]) + np.zeros(4)
print(a.shape, b.shape)
