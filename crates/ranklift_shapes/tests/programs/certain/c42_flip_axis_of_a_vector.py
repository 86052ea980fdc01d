"""A signal mirrored along an axis it does not have (sktime's vmdpy shape): `np.flip` checks
`axis` as every NumPy function taking one does."""
import numpy as np

f = np.cos(np.linspace(0, 1, 100))
half = len(f) // 2
mirrored = np.append(np.flip(f[:half], axis=0), f)
mirrored = np.append(mirrored, np.flip(f[-half:], axis=1))
