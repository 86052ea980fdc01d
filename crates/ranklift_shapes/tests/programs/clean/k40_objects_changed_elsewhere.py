"""Objects and lists that code the analysis does not run may change: callbacks registered with a
library, lists handed to library functions, objects kept in a heap, a dict subclass that makes
its keyword arguments its attributes (statsmodels' Dataset, scikit-learn's tree grower)."""
import functools
from heapq import heappop, heappush

import numpy as np


class Dataset(dict):
    def __init__(self, **kw):
        self.endog = None
        self.exog = None
        dict.__init__(self, kw)
        self.__dict__ = self


data = Dataset(endog=np.ones(4), exog=np.ones((4, 2)))
assert data.exog[:2].shape == (2, 2)


def run_with_callback(image, iter_callback):
    for _ in range(3):
        iter_callback(image)


def test_callback():
    evolution = []

    def store(x):
        evolution.append(x.sum())

    functools.partial(run_with_callback, np.ones(3))(iter_callback=store)
    assert evolution[0] == 3


test_callback()


def fill(out):
    out.extend([np.ones(2), np.ones(2)])


def collect():
    parts = []
    functools.reduce(lambda acc, f: f(acc) or acc, [fill], parts)
    return np.stack(parts)


assert collect().shape == (2, 2)


class Node:
    def __init__(self, value):
        self.value = value
        self.left_child = None

    def __lt__(self, other):
        return self.value < other.value


class Grower:
    def __init__(self):
        self.splittable = []
        self.root = Node(1.0)
        heappush(self.splittable, self.root)

    def split_next(self):
        node = heappop(self.splittable)
        node.left_child = Node(node.value / 2)
        return node.left_child


g = Grower()
assert g.root.left_child is None
g.split_next()
assert g.root.left_child.value == 0.5
