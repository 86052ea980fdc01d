"""Attributes whose values code the analysis does not follow sets or computes: property
setters, metaclasses, descriptors, methods of library base classes, recursive calls; and
conditions that guard each other (astropy.modeling, sktime, ply-style code)."""
import threading
from platform import python_version_tuple

import numpy as np


class Box:
    def __init__(self):
        self._box = None

    @property
    def bounding_box(self):
        return self._box

    @bounding_box.setter
    def bounding_box(self, value):
        self._box = np.asarray(value, dtype=float).reshape(-1, 2)


b = Box()
b.bounding_box = (0, 1, 2, 3)
assert b.bounding_box.shape == (2, 2)


class Meta(type):
    """Turns class-level numbers into arrays (as astropy's _ModelMeta makes parameters)."""

    def __new__(mcls, name, bases, ns):
        for k, v in list(ns.items()):
            if isinstance(v, (int, float)) and not k.startswith("_"):
                ns[k] = np.full(3, v)
        return super().__new__(mcls, name, bases, ns)


class Model(metaclass=Meta):
    amplitude = 1.0


assert Model().amplitude.shape == (3,)
assert Model.amplitude.all()


class Worker(threading.Thread):
    """`start()` is the library's: it runs `run`, which sets the result."""

    def __init__(self):
        super().__init__()
        self.result = None

    def run(self):
        self.result = np.ones(4)


w = Worker()
w.start()
w.join()
assert w.result.shape == (4,)


class Node:
    def __init__(self):
        self.values = None


def fill(node, depth):
    if depth > 0:
        fill(node, depth - 1)
    else:
        node.values = np.zeros(3)


n = Node()
fill(n, 2)
assert n.values.shape == (3,)

names = ["Box", "Model"]
registry = {(cls := globals()[name]).__name__: cls for name in names}
assert registry["Box"] is Box

if python_version_tuple()[0] < "3":
    text_type = unicode  # noqa: F821 (Python 2 only)
else:
    text_type = str


def parse(tokens):
    """A parser stack (ply's yacc loop): the first condition keeps `stack` non-empty below."""
    stack = ["$start"]
    for tok in tokens:
        if len(stack) <= 1 and tok != "$end":
            stack.append(tok)
            continue
        if tok == "$end":
            return stack
        stack.pop()
        top = stack[-1]
        stack.append(top)
    return stack


assert parse("a b $end".split()) == ["$start", "$start"]
