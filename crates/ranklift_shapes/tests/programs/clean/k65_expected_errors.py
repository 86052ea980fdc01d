# Tests feed bad input on purpose inside a "this raises" block (`pytest.raises`,
# `assertRaises`; here a context manager of the same name, so that the program needs only
# NumPy): the library's own validation raises, or NumPy does where the validation is one the
# analysis cannot decide (`all(...)` over a list). No finding; the code after the block runs.
# A call leaving out a required argument raises TypeError before the body runs.
import contextlib

import numpy as np


@contextlib.contextmanager
def raises(expected):
    try:
        yield
    except expected:
        return
    raise AssertionError(f"{expected.__name__} not raised")


class DescriptorError(ValueError):
    pass


def learn(descriptors, *, n_modes):
    dims = [d.shape[1] == descriptors[0].shape[1] for d in descriptors]
    if not all(dims):
        raise DescriptorError("descriptors differ in dimension")
    return np.vstack(descriptors).mean(axis=0)[:n_modes]


with raises(DescriptorError):
    learn([np.zeros((5, 11)), np.zeros((4, 10))], n_modes=1)
try:
    learn([np.zeros((5, 11)), np.zeros((4, 10))])
except TypeError:
    pass
with contextlib.suppress(TypeError):
    learn([np.zeros((5, 11)), np.zeros((4, 10))])
print(learn([np.zeros((5, 10)), np.ones((4, 10))], n_modes=2))
