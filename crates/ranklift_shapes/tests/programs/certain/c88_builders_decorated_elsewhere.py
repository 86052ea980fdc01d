"""Two builders under the same decorators, imported from another module.

Each decoration runs the imported factories on this module's function while this module is
still running (its globals, `np`, are the ones the builder reads), and the two builders get
wrappers of their own: calling `make_wide` runs `make_wide`, not a blend of both.
"""

import numpy as np
from helpers_registry import legacy, register


@register()
@legacy(n="rows")
def make_narrow(rows, width=2):
    return np.ones((rows, width))


@register()
@legacy(n="rows")
def make_wide(rows, width=5):
    return np.ones((rows, width))


narrow = make_narrow(rows=3)
wide = make_wide(rows=3)
scores = narrow @ wide
