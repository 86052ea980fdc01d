# getattr with a constant name is the attribute; with a default, or under `except
# AttributeError`, a missing one is not an error.
import numpy as np

mean = getattr(np, "mean")(np.ones((2, 3)), axis=0) + np.ones(3)
trapz = getattr(np, "trapezoid", None) or getattr(np, "trapz")
try:
    f128 = getattr(np, "no_such_numpy_name")
except AttributeError:
    f128 = np.float64
print(mean.shape, trapz(np.ones(4)), f128)
