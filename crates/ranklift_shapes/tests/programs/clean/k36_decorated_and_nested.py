"""A decorator that changes a function's signature, a function called from a decorator inside a
class body (its nested function keeps its closure), and a class defined inside a method whose
methods read the method's variables (real-code false alarms: W201 / E011 on each)."""
import functools


def vectorize_like(f):
    @functools.wraps(f)
    def wrapper(x):
        out = [0.0] * len(x)
        f(x, out)
        return out

    return wrapper


@vectorize_like
def core(x, out):
    out[:] = [max(x)] * len(x)


def has(attr):
    def check(self):
        return hasattr(self, attr)

    return check


def when(check):
    return lambda fn: fn


class Model:
    @when(has("fit"))
    def predict(self, x):
        return x

    def build(self):
        n_points, n_dim = 3, 2

        class Problem:
            def __init__(self):
                self.size = n_points * n_dim

        return Problem()


print(core([1.0, 2.0]), Model().predict(1), Model().build().size)
