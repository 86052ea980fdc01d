"""One statement raises once: the second undefined name of the same expression is never looked up
(statsmodels' `condent(...) + condent(...)`, marked `noqa: F821`)."""
import numpy as np


def mutual_information(px, py):
    return (condent(px, py)  # noqa: F821
            + condent(py, px))  # noqa: F821


mutual_information(np.ones(3) / 3, np.ones(3) / 3)
