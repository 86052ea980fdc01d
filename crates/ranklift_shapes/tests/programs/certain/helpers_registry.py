"""Decorators for c88: a registry, a keyword adapter and a legacy-argument layer that applies
the adapter to the wrapper it makes (as torchvision's model builders are decorated)."""

import functools

BUILDERS = {}


def register(name=None):
    def wrapper(fn):
        BUILDERS[name or fn.__name__] = fn
        return fn

    return wrapper


def keywords_too(fn):
    @functools.wraps(fn)
    def adapter(*args, **kwargs):
        return fn(*args, **kwargs)

    return adapter


def legacy(**renamed):
    def outer(builder):
        @keywords_too
        @functools.wraps(builder)
        def inner(*args, **kwargs):
            for old, new in renamed.items():
                if old in kwargs:
                    kwargs[new] = kwargs.pop(old)
            return builder(*args, **kwargs)

        return inner

    return outer
