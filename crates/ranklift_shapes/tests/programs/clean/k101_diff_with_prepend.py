# A frequency grid's non-increasing points dropped: `np.diff` with `prepend` keeps one
# difference per point, so its mask indexes the points themselves.
import numpy as np

UNITS = {"hz": 1.0, "khz": 1e3, "mhz": 1e6, "ghz": 1e9}


def grid(start, stop, npoints, unit="GHz"):
    return np.linspace(start, stop, npoints) * UNITS[unit.lower()]


f = grid(1, 3, 3)
invalid = np.diff(f, prepend=f[0] - 1) <= 0
kept = f[~invalid]
steps = np.diff(f, append=np.zeros(2))
print(kept.shape, steps.shape)
