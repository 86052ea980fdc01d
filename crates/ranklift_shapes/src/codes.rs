//! The code table of `ranklift shapes`. Pytropos' codes are kept where they apply; the new
//! checks get new codes in Pytropos' scheme (E0 a certain Python error, W2 names, W3 hints,
//! W5 library errors).

/// `(code, what it reports, hint)`.
pub const CODES: &[(&str, &str, &str)] = &[
    (
        "E001",
        "ZeroDivisionError",
        "the divisor is zero on every execution reaching this line",
    ),
    (
        "E009",
        "TypeError: unsupported operand types",
        "the operand types are known here and Python rejects the combination",
    ),
    (
        "E011",
        "AttributeError: missing attribute",
        "check the spelling against the library's documentation",
    ),
    (
        "E015",
        "TypeError: object is not subscriptable",
        "the value is a scalar or None here",
    ),
    (
        "E016",
        "TypeError: object is not callable",
        "a variable shadows a function, or a call has one pair of parentheses too many",
    ),
    (
        "E017",
        "TypeError / IndexError: bad index or size argument",
        "sizes and indices must be integers within range",
    ),
    (
        "E018",
        "ValueError: too many / not enough values to unpack",
        "the names on the left must be as many as the items on the right (a tensor or array unpacks along its first dimension)",
    ),
    (
        "W202",
        "ImportError: cannot import name",
        "the module (at the NumPy version of --numpy-version) has no such name",
    ),
    (
        "W201",
        "NameError: undefined name",
        "the name is not assigned on any path reaching this line",
    ),
    (
        "W301",
        "a shape hint contradicts the computed shape",
        "the hint must be at least as precise as the computed shape and agree with it",
    ),
    (
        "W302",
        "a malformed shape hint",
        "a hinted dimension is a natural number, `int` (unknown) or a name",
    ),
    (
        "W303",
        "an argument or a result contradicts its shape annotation (jaxtyping, Annotated, NdArray)",
        "a name in an annotation is one size for the whole call; fix the caller, the body or the annotation (jaxtyping's runtime checker raises here)",
    ),
    (
        "W304",
        "reveal_shape(x): what the analysis knows of x (ranklift.hints.reveal_shape, as a type checker's reveal_type)",
        "a debugging aid: remove the call when done (at run time it prints the real shape to stderr and returns x)",
    ),
    (
        "W502",
        "ValueError: operands could not be broadcast",
        "trailing dimensions must be equal or 1 (in einsum: one size per subscript)",
    ),
    (
        "W503",
        "ValueError: dot: shapes not aligned",
        "the last dimension of a must equal the second-to-last of b",
    ),
    (
        "W504",
        "ValueError: matmul: core dimension mismatch",
        "for a @ b the last dimension of a must equal the second-to-last of b",
    ),
    (
        "W505",
        "ValueError: cannot reshape",
        "the number of elements must stay the same; at most one -1",
    ),
    (
        "W506",
        "ValueError: concatenate/stack: shapes differ",
        "all dimensions except the concatenation axis must match (stack: all)",
    ),
    (
        "W507",
        "AxisError: axis out of bounds",
        "an axis must be in [-ndim, ndim)",
    ),
    (
        "W508",
        "ValueError: transpose: bad axes",
        "axes must be a permutation of range(ndim)",
    ),
    (
        "W509",
        "ValueError: cannot squeeze a dimension that is not 1",
        "only dimensions of size one can be squeezed",
    ),
    (
        "W510",
        "IndexError: index out of bounds / too many indices",
        "an index must be in [-size, size) and there are at most ndim of them",
    ),
    (
        "W511",
        "ValueError: negative dimensions",
        "array sizes must not be negative",
    ),
    (
        "W512",
        "ValueError: inhomogeneous nested sequence",
        "every row of a nested list must have the same length (or pass dtype=object)",
    ),
    (
        "W513",
        "LinAlgError: not a (square) matrix",
        "np.linalg routines need 2-d (or stacked) matrices; inv, det, eig, solve need square ones",
    ),
    (
        "W514",
        "ValueError: the truth value of an array with more than one element is ambiguous",
        "test `a.any()` or `a.all()`, or index the element you meant to compare",
    ),
    (
        "W515",
        "TypeError: only length-1 arrays can be converted to Python scalars",
        "pass one element (`a[i]`, `a.item()`), or use the NumPy function (`np.sqrt`, not `math.sqrt`)",
    ),
    (
        "W520",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (PyTorch)",
        "a Linear layer's in_features (or a matmul's inner size, or attention's query/key width) must equal the input's last dimension",
    ),
    (
        "W521",
        "RuntimeError / ValueError / AssertionError: a layer got an input of the wrong size (PyTorch)",
        "a layer's channels or features must follow the layer before it; check in_channels, num_features, normalized_shape, input_size, embed_dim/d_model (divisible by the heads), GroupNorm's channels",
    ),
    (
        "W522",
        "RuntimeError: the size of tensor a must match the size of tensor b (PyTorch)",
        "trailing dimensions must be equal or 1 (in einsum: one size per subscript)",
    ),
    (
        "W523",
        "RuntimeError: shape is invalid for input of size (PyTorch)",
        "view/reshape must keep the number of elements, at most one -1; split sizes must sum to the dim",
    ),
    (
        "W524",
        "RuntimeError: sizes of tensors must match (PyTorch cat/stack)",
        "cat needs equal sizes except in its dim and equal ranks; stack needs equal shapes",
    ),
    (
        "W525",
        "IndexError: Dimension out of range (PyTorch)",
        "a dim must be in [-ndim, ndim)",
    ),
    (
        "W526",
        "RuntimeError: output size is too small / kernel size can't be greater than input (PyTorch)",
        "the input is too small for this convolution or pooling: fewer downsamplings, a bigger input, or padding",
    ),
    (
        "W527",
        "ValueError: a loss got a target of the wrong size (PyTorch)",
        "the target must have the input's size (BCE) or its batch size (cross_entropy, nll_loss)",
    ),
    (
        "W528",
        "IndexError: invalid index of a 0-dim tensor (PyTorch)",
        "a 0-d tensor (a loss, a reduction) has no element to index since torch 0.5: `loss.item()`, not `loss.data[0]`",
    ),
];

pub fn hint(code: &str) -> Option<&'static str> {
    CODES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|(_, _, h)| *h)
}

/// The severity of a finding: `error` for one that certainly raises when the line runs (a
/// W5xx library error, a W201 NameError, an E0xx Python error), `warning` for one that only may
/// (`--possible`) and for disagreements with shape hints (W3xx), which do not crash.
pub fn severity(code: &str, certain: bool) -> ranklift_python::Severity {
    use ranklift_python::Severity;
    if certain && !code.starts_with("W3") {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// `(code, a program that gets it)`: the example of each code's page (`ranklift rule CODE`).
/// `tests/it/rule_examples.rs` checks that the analysis reports the code on it and, with real
/// NumPy, that the program raises the exception the code names.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("E001", "n = 0\nrate = 10 / n\n"),
    (
        "E009",
        "import numpy as np\nshape = (3, 4)\nsize = shape + 1\n",
    ),
    (
        "E011",
        "import numpy as np\nx = np.zeros((2, 2))\ny = x.lenght\n",
    ),
    ("E015", "x = None\ny = x[0]\n"),
    ("E016", "import numpy as np\nn = 3\ny = n(2)\n"),
    ("E017", "sizes = [2, 3]\nlast = sizes[2]\n"),
    (
        "E018",
        "import numpy as np\nrows = np.zeros((4, 3))\na, b, c = rows\n",
    ),
    (
        "W201",
        "import numpy as np\nx = np.zeros(3)\ny = x + bias\n",
    ),
    ("W202", "from numpy import float_\n"),
    (
        "W301",
        "import numpy as np\nfrom ranklift.hints import NdArray\nx: NdArray[3, 2] = np.zeros((2, 3))\n",
    ),
    (
        "W302",
        "import numpy as np\nfrom ranklift.hints import NdArray\nx: NdArray[2, float] = np.zeros((2, 3))\n",
    ),
    (
        "W303",
        "import torch\nfrom jaxtyping import Float\nfrom torch import Tensor\n\n\ndef pool(x: Float[Tensor, \"b c h w\"]) -> Float[Tensor, \"b c\"]:\n    return x.mean(dim=-1)\n\n\ny = pool(torch.randn(2, 3, 4, 5))\n",
    ),
    (
        "W304",
        "import torch\nfrom ranklift.hints import reveal_shape\nx = torch.zeros(2, 3)\nreveal_shape(x.T)\n",
    ),
    (
        "W502",
        "import numpy as np\nx = np.ones((4, 3))\nb = np.ones(4)\ny = x + b\n",
    ),
    (
        "W503",
        "import numpy as np\nw = np.ones((3, 5))\nx = np.ones((2, 4))\ny = np.dot(x, w)\n",
    ),
    (
        "W504",
        "import numpy as np\nw = np.ones((256, 10))\nx = np.ones((32, 128))\ny = x @ w\n",
    ),
    (
        "W505",
        "import numpy as np\nx = np.arange(10)\ny = x.reshape(3, 3)\n",
    ),
    (
        "W506",
        "import numpy as np\na = np.ones((2, 3))\nb = np.ones((2, 4))\nc = np.concatenate([a, b])\n",
    ),
    (
        "W507",
        "import numpy as np\nx = np.ones((2, 3))\ns = x.sum(axis=2)\n",
    ),
    (
        "W508",
        "import numpy as np\nx = np.ones((2, 3))\ny = x.transpose(0, 0)\n",
    ),
    (
        "W509",
        "import numpy as np\nx = np.ones((2, 3))\ny = x.squeeze(0)\n",
    ),
    (
        "W510",
        "import numpy as np\nx = np.ones((2, 3))\ny = x[2]\n",
    ),
    ("W511", "import numpy as np\nn = 3 - 5\nx = np.zeros(n)\n"),
    ("W512", "import numpy as np\nx = np.array([[1, 2], [3]])\n"),
    (
        "W513",
        "import numpy as np\nx = np.ones((2, 3))\ny = np.linalg.inv(x)\n",
    ),
    (
        "W514",
        "import numpy as np\nx = np.ones((2, 3))\nif x[0] > 0:\n    print(x)\n",
    ),
    (
        "W515",
        "import math\nimport numpy as np\nm = np.eye(3)\nangle = math.atan2(m[1], m[0, 0])\n",
    ),
    (
        "W520",
        "import torch\nfrom torch import nn\nfc = nn.Linear(500, 10)\ny = fc(torch.randn(64, 320))\n",
    ),
    (
        "W521",
        "import torch\nfrom torch import nn\nconv = nn.Conv2d(3, 16, 3)\ny = conv(torch.randn(8, 1, 28, 28))\n",
    ),
    (
        "W522",
        "import torch\na = torch.randn(2, 3)\nb = a + torch.randn(2, 4)\n",
    ),
    (
        "W523",
        "import torch\nx = torch.randn(4, 16, 5, 5)\ny = x.view(-1, 16 * 4 * 4)\n",
    ),
    (
        "W524",
        "import torch\na = torch.randn(2, 3)\nb = torch.cat([a, torch.randn(2, 4)], dim=0)\n",
    ),
    (
        "W525",
        "import torch\nx = torch.randn(2, 3)\np = x.softmax(dim=2)\n",
    ),
    (
        "W526",
        "import torch\nfrom torch import nn\npool = nn.MaxPool2d(2)\ny = pool(torch.randn(1, 8, 1, 1))\n",
    ),
    (
        "W527",
        "import torch\nimport torch.nn.functional as F\nloss = F.cross_entropy(torch.randn(4, 10), torch.zeros(3, dtype=torch.long))\n",
    ),
    (
        "W528",
        "import torch\nloss = torch.randn(3).sum()\nrunning = loss.data[0]\n",
    ),
];
