"""Type tests on attributes and on masked arrays narrow the branch they guard."""
import numpy as np


class Scale:
    def __init__(self, scale=1.0):
        self.scaletype = scale

    def estimate(self, mu):
        if isinstance(self.scaletype, float):
            return np.array(self.scaletype)
        if isinstance(self.scaletype, str):
            if self.scaletype.lower() == "x2":
                return mu.mean()
        return 1.0


Scale().estimate(np.ones(3))
Scale("x2").estimate(np.ones(3))


def assert_same_mask(a, b):
    if np.ma.isMaskedArray(a):
        assert np.ma.isMaskedArray(b)
        assert (a.mask == b.mask).all()
        assert a.fill_value == b.fill_value


def unwrap(image):
    if np.ma.isMaskedArray(image):
        return np.ma.array(np.asarray(image), mask=image.mask, fill_value=image.fill_value)
    return np.asarray(image)


plain = np.linspace(0.0, 1.0, 4)
assert_same_mask(unwrap(plain), plain)
masked = np.ma.array(plain, mask=[0, 1, 0, 0], fill_value=0.5)
assert_same_mask(unwrap(masked), masked)
