# Annotations are not checked at run time, and some are wrong: pylops' `UpDownComposition3D`
# annotates `nr: int` and indexes it as the tuple its docstring asks for. Analysed without a
# caller, `nr[0]` is not a certain TypeError.
import numpy as np


def grid(nt: int, nr: int):
    return np.zeros((nr[0], nr[1], nt))


def uncalled(nt: int, nr: int):
    return [nr[0], nr[1], nt]


print(grid(3, (4, 5)).shape)
