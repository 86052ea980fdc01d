# A constructor that builds its value through a factory classmethod, which calls the
# constructor again with other arguments (pyquaternion's `Quaternion(axis=..., angle=...)`):
# the analysis follows the inner construction, so the 4-vector meets a 3-vector.
import math

import numpy as np


class Quaternion:
    def __init__(self, *args, **kwargs):
        if args:
            self.q = np.asarray([float(a) for a in args])
        else:
            axis = np.asarray(kwargs["axis"], dtype=float)
            self.q = Quaternion.from_axis_angle(axis, kwargs.get("angle", 0.0)).q

    @classmethod
    def from_axis_angle(cls, axis, angle):
        axis = axis / math.sqrt(axis @ axis)
        v = axis * math.sin(angle / 2.0)
        return cls(math.cos(angle / 2.0), v[0], v[1], v[2])

    def conjugate(self):
        return np.hstack((self.q[0], -self.q[1:4]))


q = Quaternion(axis=[1.0, 0.0, 0.0], angle=0.7)
print(q.conjugate() * np.ones(3))
