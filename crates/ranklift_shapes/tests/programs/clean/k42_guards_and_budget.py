"""Guards the analysis cannot decide (an assert on a type, a slice of a range chosen by the
caller, a None parameter under a type test) and arrays of objects indexed by position."""
import numpy as np


class Frame(list):
    @property
    def columns(self):
        return ["X0", "X1"]


def wrap(x):
    return Frame(x) if isinstance(x, list) else x


def test_columns():
    out = wrap([[0, 1], [2, 3]])
    assert isinstance(out, Frame)
    assert out.columns == ["X0", "X1"]


test_columns()


def frames(n, numframes=5):
    if hasattr(n, "__index__"):
        return [n]
    fidx = range(numframes)[n]
    return len(fidx)


assert frames(slice(1, 3)) == 2


def walk(tree, parent=None):
    if isinstance(tree, tuple):
        name, subtree = tree
        return sum(walk(b, name) for b in subtree)
    return len("tau_" + parent)


assert walk(("top", ["a", "b"])) == 14


class Est:
    def __init__(self, k):
        self.coef_ = np.full(2, k)


fitted = []
for k in range(3):
    fitted.append(Est(k))
fitted = np.array(fitted)
for k in range(3):
    assert fitted[k].coef_.shape == (2,)
