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
        "W502",
        "ValueError: operands could not be broadcast",
        "trailing dimensions must be equal or 1",
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
