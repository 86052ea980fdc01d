"""Python 2 branches are dead code, `and` guards its right side, and a list reached through an
index the analysis does not know may be the one that grows (nilearn, mne, tslearn)."""
import sys

import numpy as np

if sys.version_info[0] < 3:
    text_type = unicode  # noqa: F821 (never runs on Python 3)
else:
    text_type = str

assert (sys.version_info.major, sys.version_info.minor) >= (3, 8)


class Fig:
    pass


def show(fig=None):
    if hasattr(fig, "mne") and hasattr(fig.mne, "backend"):
        return fig.mne.backend
    return None


show()

parts = [[], []]
side = {"lh": 0, "rh": 1}
for hemi in ["lh", "rh", "lh"]:
    parts[side[hemi]].extend(np.atleast_2d(np.ones(3)))
data = [np.vstack(parts[i]) for i in range(2) if len(parts[i]) != 0]
assert np.concatenate(data).shape == (3, 3)
