"""A model builder under a registry's decorator factory and a wrapper factory.

`@register()` and `@legacy(...)` are calls that return decorators: both run on the
function, so `make_features` stays the function the wrapper calls, and the size it
is given reaches the product.
"""

import functools

import numpy as np

BUILDERS = {}


def register(name=None):
    def wrapper(fn):
        BUILDERS[name or fn.__name__] = fn
        return fn

    return wrapper


def legacy(**renamed):
    def outer(builder):
        @functools.wraps(builder)
        def inner(*args, **kwargs):
            for old, new in renamed.items():
                if old in kwargs:
                    kwargs[new] = kwargs.pop(old)
            return builder(*args, **kwargs)

        return inner

    return outer


@register()
@legacy(n="rows")
def make_features(rows, width=3):
    return np.ones((rows, width))


features = make_features(4)
projection = np.ones((4, 2))
scores = features @ projection
