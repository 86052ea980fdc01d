# inputs: 5 | 7
import sys
import numpy as np


def project(x, d):
    return x @ np.ones((d, 2))


out = project(np.ones((3, 5)), int(sys.argv[1]))
