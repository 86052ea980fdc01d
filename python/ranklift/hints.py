"""Shape hints read by `ranklift shapes` and harmless at run time.

    from ranklift.hints import NdArray
    x: NdArray[2, 3] = load()       # x is a (2, 3) array
    y: NdArray["n", 3] = load()     # a named dimension
    z: NdArray[int, 3] = load()     # an unknown dimension

At run time `NdArray[...]` evaluates to a marker object; it checks nothing.
"""


class _NdArrayHint:
    """`NdArray[d0, d1, ...]`: subscripting returns the hint itself."""

    def __getitem__(self, dims):
        return self

    def __repr__(self):
        return "NdArray"


NdArray = _NdArrayHint()

__all__ = ["NdArray"]
