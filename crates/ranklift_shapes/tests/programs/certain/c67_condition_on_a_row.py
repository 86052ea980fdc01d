# A scalar comparison whose index lost an axis (`M[i]` for `M[i, i]`) used as a condition: NumPy
# refuses to decide whether a 4-element array is true (a quaternion-from-matrix routine, as in
# pyquaternion).
import numpy as np


def quaternion_from_matrix(matrix):
    M = np.asarray(matrix, dtype=np.float64)
    t = np.trace(M)
    if t > 2 * M[3, 3]:
        q = np.array([t, M[1, 0] - M[0, 1], M[0, 2] - M[2, 0], M[2, 1] - M[1, 2]])
    else:
        i = 0
        if M[1] > M[0, 0]:
            i = 1
        q = np.zeros(4)
        q[i] = 1.0
    return q


print(quaternion_from_matrix(np.diag([1.0, 2.0, 3.0, 10.0])))
