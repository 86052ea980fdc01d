# Conditions on single elements, on `.any()` / `.all()`, and on a one-element array: no error.
import numpy as np


def quaternion_from_matrix(matrix):
    M = np.asarray(matrix, dtype=np.float64)
    t = np.trace(M)
    if t > 2 * M[3, 3]:
        q = np.array([t, M[1, 0] - M[0, 1], M[0, 2] - M[2, 0], M[2, 1] - M[1, 2]])
    else:
        i = 0
        if M[1, 1] > M[0, 0]:
            i = 1
        q = np.zeros(4)
        q[i] = 1.0
    return q


q = quaternion_from_matrix(np.diag([1.0, 2.0, 3.0, 10.0]))
if (q > 0).any() and not (q < -1).all():
    print(q)
if np.ones(1) > 0:
    print("one element")
while np.zeros((1, 1)):
    break
