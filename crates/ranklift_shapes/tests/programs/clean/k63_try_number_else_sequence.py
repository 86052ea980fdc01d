# `try: float(x) ... return` / `except TypeError: pass` dispatches a number from a sequence
# (pyquaternion's constructor): the code after the handler runs only for values `float`
# refused, so what the analysis knew of `x` there does not hold.
import numpy as np


class Quaternion:
    def __init__(self, *args):
        if len(args) == 1:
            try:
                r = float(args[0])
                self.q = np.array([r, 0.0, 0.0, 0.0])
                return
            except TypeError:
                pass
            self.q = self._validate(args[0], 4)
        else:
            self.q = self._validate(args, 4)

    def _validate(self, seq, n):
        if len(seq) != n:
            raise ValueError(f"expected {n} numbers, got {len(seq)}")
        return np.asarray([float(e) for e in seq])

    def __mul__(self, other):
        if not isinstance(other, Quaternion):
            other = Quaternion(other)
        a, b = self.q, other.q
        return Quaternion(a[0] * b[0] - a[1:] @ b[1:], *(a[0] * b[1:] + b[0] * a[1:] + np.cross(a[1:], b[1:])))


q = Quaternion(1.0, 0.0, 0.0, 0.0) * 2.0
print(q.q, (Quaternion([0.0, 1.0, 0.0, 0.0]) * q).q)
