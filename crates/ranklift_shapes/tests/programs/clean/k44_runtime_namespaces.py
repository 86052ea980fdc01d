"""Names and values made at run time: a module namespace filled through globals()/locals(),
Enum members, tuple version checks, functions defined above the class they test for, and
tests skipped on some versions (astropy, sktime, configobj-style code)."""
import enum
import sys

import numpy as np

_ns = globals()
for _name in ["m", "s"]:
    _ns[_name] = float(len(_name))
assert m + s == 2.0  # noqa: F821 (made through globals())

if sys.version_info < (3,):
    string_type = basestring  # noqa: F821
else:
    string_type = str
assert sys.version_info >= (3, 8)


class Bounding(enum.Enum):
    NONE = 1
    BAND = 2

    def matrix(self, n):
        return np.ones((n, n)) if self is Bounding.NONE else np.eye(n)


assert Bounding.NONE.matrix(2).shape == (2, 2)


def flatten(items):
    if not isinstance(items, list):
        items = [items]
    return [i for i in items if isinstance(i, Unit)]


class Registry:
    def __init__(self, init=[]):
        self.units = flatten(init)


_registry = Registry()


class Unit:
    pass


assert len(flatten([Unit(), 3])) == 1


def skipif(condition, reason=""):
    def wrap(f):
        return (lambda *a: None) if condition else f
    return wrap


@skipif(not hasattr(np, "product"), reason="np.product is gone in NumPy 2")
def test_product():
    assert np.product([2, 3]) == 6  # noqa: NPY003


test_product()
