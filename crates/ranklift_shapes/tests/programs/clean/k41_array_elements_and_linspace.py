"""Elements of a 1-d array are whatever it holds (matplotlib axes in an object array); linspace
between array endpoints has one row per sample (scikit-image's line_nd, pymoo's plots)."""
import numpy as np


class Axes:
    def set_title(self, t):
        self.title = t


axes = np.array([Axes(), Axes()], dtype=object).reshape(1, 2)
for i, ax in enumerate(axes.flatten()):
    ax.set_title(f"plot {i}")


def line_nd(start, stop):
    start = np.asarray(start)
    stop = np.asarray(stop)
    npoints = int(np.ceil(np.max(np.abs(stop - start)))) + 1
    coords = np.linspace(start, stop, num=npoints).T
    for dim in range(len(start)):
        coords[dim, :] = np.round(coords[dim, :])
    return coords


assert line_nd([2, 1, 1], [5, 5, 2.5]).shape == (3, 5)
assert np.linspace(np.zeros(3), np.ones(3), 4).shape == (4, 3)
