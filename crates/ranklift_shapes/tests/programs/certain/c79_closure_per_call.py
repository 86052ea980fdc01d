# Each call of `squares` gets its own `collect`, appending to its own `result`: the second call
# collects exactly three arrays: index 2 is there, index 3 is out of range.
import numpy as np


def apply(func, items):
    for x in items:
        func(x)


def squares(items):
    result = []

    def collect(x):
        result.append(np.full((2,), x * x))

    apply(collect, items)
    return result


a = squares([1, 2, 3, 4])
b = squares([4, 5, 6])
print(a[3].shape, b[2].shape)
print(b[3].shape)
