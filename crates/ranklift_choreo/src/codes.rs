//! The diagnostic codes of `ranklift choreo check` (README.md has the same table).
//!
//! Every code is an error: a choreography with any of them is not projected. Each entry says what
//! triggers it, shows a program that gets it, the fix, and where it is raised.

/// A construct outside the supported subset inside a role class: `with`, `global`/`nonlocal`,
/// `yield`/`await`, nested `def`/`class`, `*args`/`**kwargs` (parameters, or `*`/`**` arguments
/// of a choreographic call), `break`/`continue` in a choreographic loop, communication inside
/// `try`/`raise`/`assert`, a lambda or comprehension over values of several roles, `@entry` on a
/// module-level function (entries are static methods of a choreography class), `import pychoral`
/// (names are recognised only when imported with `from pychoral import ...`), a module-level name
/// equal to a projected class `C_R`.
///
/// ```python
/// for i in range(3):
///     break                       # E-UNSUP
/// ```
/// Fix: end loops through their condition (a `while` with selections). Raised in
/// `locate/stmt.rs`, `locate/expr.rs` (closures), `decls.rs` (signatures, decorators).
pub const E_UNSUP: &str = "E-UNSUP";

/// A role that is not declared (`R = Role("R")`), not a parameter of the class, repeated, or the
/// wrong number of roles in `C[R...]` / `ChN[...]`.
///
/// ```python
/// class Unknown(Ch2[A, B]):
///     def run(n: At[int, D]) -> None: ...   # E-ROLE: D is not a role of Unknown
/// ```
/// Fix: add the role to the class's roles or use one of them. Raised in `decls.rs` (`role_arg`,
/// `role_args`) and `locate/` (`@ R`, role classes used without roles).
pub const E_ROLE: &str = "E-ROLE";

/// Declared and actual location differ (annotated assignment, re-assignment, argument, return,
/// field), a parameter or return without a located type, an unknown name or field, a
/// choreographic call with an unknown, repeated or missing argument, a parameter default that is
/// not role-free.
///
/// ```python
/// x: At[int, B] = n + 1           # E-LOC when n is At[int, A]
/// ```
/// Fix: move the value with `ch.com(...)`, or declare the right role. Raised in `locate/stmt.rs`
/// (`assign_check`, returns), `locate/comm.rs` (`check_args`), `decls.rs` (`parse_loc`,
/// `role_free` defaults).
pub const E_LOC: &str = "E-LOC";

/// A local operation whose operands are located at different roles.
///
/// ```python
/// print(a, b)                     # E-MIX when a is at A and b at B
/// ```
/// Fix: send one value to the other role first. Raised in `locate/expr.rs` (`local_op`).
pub const E_MIX: &str = "E-MIX";

/// No role can be inferred for an expression (no located operand, no expected type).
///
/// ```python
/// print("hello")                  # E-INFER: which role prints?
/// ```
/// Fix: `print("hello" @ A)`, or annotate the target. Raised in `locate/expr.rs` (`local_op`),
/// `locate/comm.rs` (a role-free value sent over a symmetric channel, a label without `@ R`).
pub const E_INFER: &str = "E-INFER";

/// A misused channel: the value is not at an end of it, a `DiChannel` used backwards, the same
/// role at both ends, a label that is not an enum member, `select` used as a value,
/// `Channel.open` outside an `@entry` method or without an annotated target.
///
/// ```python
/// x: At[str, IP] = s.com(pwd)     # E-CHAN when pwd is at Client and s: Channel[object, Service, IP]
/// ```
/// Fix: use a channel with an end where the value is. Raised in `locate/comm.rs`.
pub const E_CHAN: &str = "E-CHAN";

/// A value the wire format cannot carry is sent: the type a `com` receives into is a class of
/// the module that is neither a dataclass nor an enum (a plain class, a `NamedTuple`, an
/// exception). It would pass the check and fail at run time with `EncodeError`.
///
/// ```python
/// class Job:                                  # a plain class
///     ...
/// j: At[Job, B] = ch.com(job)     # E-WIRE
/// ```
/// Fix: make `Job` a `@dataclass` (of carried types), or send its fields. Raised in
/// `locate/stmt.rs`.
pub const E_WIRE: &str = "E-WIRE";

/// Communication where Python evaluates conditionally or out of order: the right operand of
/// `and`/`or`, a branch of a conditional expression, a comprehension or lambda, an assignment
/// target, a `for` header, a `while` condition that involves another role.
///
/// ```python
/// y: At[bool, B] = ok and ch.com(x)   # E-SHORT: B may skip the receive while A sends
/// ```
/// Fix: communicate in a statement of its own first. Raised in `locate/expr.rs`,
/// `locate/stmt.rs` and `project.rs` (`while` conditions).
pub const E_SHORT: &str = "E-SHORT";

/// An `if`/`while` condition that is not at one role (or role-free): a channel, an object.
///
/// ```python
/// if ch:                          # E-COND
/// ```
/// Fix: compute a boolean at one role. Raised in `locate/stmt.rs` (`cond`).
pub const E_COND: &str = "E-COND";

/// Knowledge of choice: merging a role's projections of the two branches of an `if` (or of a
/// `while` body and its exit) failed, so that role cannot tell which branch was taken. Reported
/// at the `if`/`while` header, naming the role, with notes at its first differing actions and a
/// hint naming the channel (or forwarding role) and labels to use.
///
/// ```python
/// if n < 3:                       # E-KOC for B: B receives in one branch, prints in the other
///     m: At[int, B] = self.ch.com(n)
/// else:
///     print("done" @ B)
/// ```
/// Fix: start each branch with `self.ch.select(Choice.X @ A)`, different labels. Raised in
/// `project.rs` (`koc`, the `while` case); the merge itself is `ir::merge`.
pub const E_KOC: &str = "E-KOC";

/// Internal error of the projection (a projected module that would not parse): nothing is
/// written. A bug in ranklift, never the choreography's.
///
/// Fix: report it with the file.
pub const E_INTERNAL: &str = "E-INTERNAL";
