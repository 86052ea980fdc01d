# A frequency grid's non-increasing points dropped with a mask from plain `np.diff`: one
# difference fewer than points, so the mask does not fit the grid it indexes.
import numpy as np

UNITS = {"hz": 1.0, "khz": 1e3, "mhz": 1e6, "ghz": 1e9}


def grid(start, stop, npoints, unit="GHz"):
    return np.linspace(start, stop, npoints) * UNITS[unit.lower()]


f = grid(1, 3, 3)
invalid = np.diff(f) <= 0
kept = f[~invalid]
print(kept.shape)
