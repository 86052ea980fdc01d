"""Functions nobody calls, analysed with unknown arguments: an unknown argument used as a
whole shape, as an array to reshape, or compared, is not narrowed to an int or a bool."""
import numpy as np


def error_rate(a, p):
    return (a != p).sum()


def dims(s):
    d = np.zeros(s)
    return len(s), d


def flatten_last(X):
    return np.reshape(X, (-1, X.shape[3]))


def walk_all(tree):
    def walk(node):
        return walk(node[0]) if node else 0

    return walk(tree)


print("defined")
