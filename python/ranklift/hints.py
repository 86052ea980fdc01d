"""Shape hints read by `ranklift shapes` and harmless at run time.

    from ranklift.hints import NdArray, Tensor
    x: NdArray[2, 3] = load()       # x is a (2, 3) array
    y: NdArray["n", 3] = load()     # a named dimension
    z: NdArray[int, 3] = load()     # an unknown dimension
    def forward(self, x: Tensor["b", 3, 32, 32]) -> Tensor["b", 10]: ...   # PyTorch tensors

At run time `NdArray[...]` and `Tensor[...]` evaluate to marker objects; they check nothing.

    from ranklift.hints import reveal_shape
    reveal_shape(x @ w)             # `ranklift shapes` reports what it knows of it (W304)

At run time `reveal_shape(x)` prints the real shape to standard error and returns `x`.
"""

import sys


class _ShapeHint:
    """`NdArray[d0, d1, ...]` / `Tensor[d0, ...]`: subscripting returns the hint itself."""

    def __init__(self, name):
        self._name = name

    def __getitem__(self, dims):
        return self

    def __repr__(self):
        return self._name


NdArray = _ShapeHint("NdArray")
Tensor = _ShapeHint("Tensor")

def reveal_shape(x):
    """Print `x`'s shape (what `ranklift shapes` reports statically as W304) and return `x`."""
    print(f"reveal_shape: {tuple(getattr(x, 'shape', ()))}", file=sys.stderr)
    return x


__all__ = ["NdArray", "Tensor", "reveal_shape"]
