# `np.isscalar`: True for Python numbers and strings, False for arrays, lists, tuples and None;
# every branch below that would fail is one the value decides against.
import numpy as np

for v in (np.ones(3), [1.0, 2.0], (1, 2), None):
    if np.isscalar(v):
        bad = np.zeros(2) + np.zeros(3)
for v in (2.5, 3, "s", True):
    if not np.isscalar(v):
        bad = np.zeros(2) + np.zeros(3)


def transform(f):
    if np.isscalar(f):
        return f * 2.0
    return np.asarray(f).copy()


total = transform(np.ones((3, 5))) + np.ones(5) + transform(4.0)
