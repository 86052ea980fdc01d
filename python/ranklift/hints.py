"""Shape hints read by `ranklift shapes` and harmless at run time.

    from ranklift.hints import NdArray, Tensor
    x: NdArray[2, 3] = load()       # x is a (2, 3) array
    y: NdArray["n", 3] = load()     # a named dimension
    z: NdArray[int, 3] = load()     # an unknown dimension
    def forward(self, x: Tensor["b", 3, 32, 32]) -> Tensor["b", 10]: ...   # PyTorch tensors

At run time `NdArray[...]` and `Tensor[...]` evaluate to marker objects; they check nothing.
"""


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

__all__ = ["NdArray", "Tensor"]
