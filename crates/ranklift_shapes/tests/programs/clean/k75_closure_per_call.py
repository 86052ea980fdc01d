# A helper that collects through a nested function, called twice: each call's `collect` appends
# to that call's own `result` (a new function object, new cells), through a tree walk that
# recurses (PyWavelets' `get_leaf_nodes` -> `walk(collect)`) and through a plain loop.
import numpy as np


class Node:
    def __init__(self, level):
        self.level = level
        self.child = None
        self.data = np.zeros((2, level + 1))

    def walk(self, func):
        if func(self) and self.level < 3:
            if self.child is None:
                self.child = Node(self.level + 1)
            self.child.walk(func)

    def leaves(self):
        result = []

        def collect(node):
            if node.level == 3:
                result.append(node)
                return False
            return True

        self.walk(collect)
        return result


def apply(func, items):
    for x in items:
        func(x)


def squares(items):
    result = []

    def collect(x):
        result.append(np.full((2,), x * x))

    apply(collect, items)
    return result


root = Node(0)
first = root.leaves()
second = root.leaves()
print(first[0].data.shape, second[0].data.shape)
a = squares([1, 2, 3])
b = squares([4, 5, 6])
print(np.stack([a[2], b[2]]).shape)
