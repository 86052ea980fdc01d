"""A test loop over classes that dispatches on `cls is ...` (dipy's scale-space tests): the
branch for the other class never runs with this one, so its argument order is no error."""
import numpy as np


class ScaleSpace:
    def __init__(self, image, num_levels, grid2world=None, spacing=None):
        self.levels = num_levels
        if grid2world is not None:
            self.origin = np.dot(grid2world, np.ones(image.ndim + 1))


class IsotropicScaleSpace(ScaleSpace):
    def __init__(self, image, factors, sigmas, grid2world=None, spacing=None):
        super().__init__(image, len(factors), grid2world, spacing)
        self.sigmas = sigmas


for test_class in [ScaleSpace, IsotropicScaleSpace]:
    spacing = np.array([1.1, 1.2])
    grid2world = np.diag(tuple(spacing) + (1.0,))
    image = np.ones((4, 4))
    if test_class is ScaleSpace:
        ss = test_class(image, 3, grid2world, spacing)
    elif test_class is IsotropicScaleSpace:
        ss = test_class(image, [4, 2, 1], [3.0, 1.0, 0.0], grid2world, spacing)
    assert ss.origin.shape == (3,)
assert ScaleSpace is not np.ndarray and IsotropicScaleSpace is not ScaleSpace
