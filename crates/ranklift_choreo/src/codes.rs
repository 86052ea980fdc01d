//! The diagnostic codes of `ranklift choreo check` (the table in README.md mirrors this one).
//!
//! Every code is an error: a choreography with any of them is not projected.

/// A construct outside the supported subset (inside a role class): lambdas or comprehensions over
/// values of several roles, `global`, `nonlocal`, `yield`, `async`, `with`, nested `def`s,
/// `*args`, keyword arguments in choreographic calls, `break`/`continue` in choreographic loops.
pub const E_UNSUP: &str = "E-UNSUP";
/// Unknown role, wrong role arity in `C[R...]` or `ChN[...]`, duplicate role, role that is not a
/// parameter of the class.
pub const E_ROLE: &str = "E-ROLE";
/// Declared and actual location differ (assignment, argument, return, field), or a located type is
/// missing.
pub const E_LOC: &str = "E-LOC";
/// A local operation whose operands are located at different roles (`print(a_at_A, b_at_B)`).
pub const E_MIX: &str = "E-MIX";
/// The location of an expression cannot be inferred: write `e @ R`.
pub const E_INFER: &str = "E-INFER";
/// Misused channel: value not at an endpoint, wrong direction on a `DiChannel`, same role at both
/// ends, label not an enum member, `select` used as a value, `Channel.open` outside `@entry`.
pub const E_CHAN: &str = "E-CHAN";
/// Communication in a place Python evaluates conditionally or out of order: the right operand of
/// `and`/`or`, a conditional expression, a comprehension, a lambda, an assignment target.
pub const E_SHORT: &str = "E-SHORT";
/// An `if`/`while` condition not located at exactly one role (or everywhere).
pub const E_COND: &str = "E-COND";
/// Knowledge of choice: some role cannot tell which branch was taken (merging its two projections
/// failed).
pub const E_KOC: &str = "E-KOC";
