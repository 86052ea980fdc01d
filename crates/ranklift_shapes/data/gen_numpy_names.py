"""Write numpy_names.txt: the public attributes of the NumPy modules and ndarray that
ranklift shapes checks attribute access against (E011). Run with the NumPy to record:
    python gen_numpy_names.py > numpy_names.txt
Each line is `<owner> <name>`; the first line records the NumPy version."""
import numpy as np
print("# numpy", np.__version__)
for owner, obj in [("numpy", np), ("numpy.random", np.random), ("numpy.linalg", np.linalg), ("numpy.ndarray", np.ndarray)]:
    for name in sorted(dir(obj)):
        print(owner, name)
