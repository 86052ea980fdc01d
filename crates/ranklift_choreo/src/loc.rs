//! Locations: where a value lives in a choreography.

use std::fmt;

/// The location of an expression (or the located type of a variable, parameter, field or result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loc {
    /// A role-free value every role can compute on its own (literals, module constants, pure
    /// builtins of those).
    Every,
    /// A value at one role: `At[T, R]`.
    At(String),
    /// A choreographic object `C[R1, ..., Rn]` (a role class instantiated with roles).
    Obj(String, Vec<String>),
    /// A channel between two roles; `di` means `DiChannel` (a → b only).
    Chan { a: String, b: String, di: bool },
    /// No value (`-> None`, a statement-like call).
    NoValue,
    /// Unknown after an error was reported (suppresses follow-on errors).
    Unknown,
}

impl Loc {
    /// True if a value with this location exists at role `x`.
    pub fn mentions(&self, x: &str) -> bool {
        match self {
            Loc::Every | Loc::Unknown => true,
            Loc::At(r) => r == x,
            Loc::Obj(_, rs) => rs.iter().any(|r| r == x),
            Loc::Chan { a, b, .. } => a == x || b == x,
            Loc::NoValue => false,
        }
    }

    /// The roles this location names.
    pub fn roles(&self) -> Vec<&str> {
        match self {
            Loc::At(r) => vec![r.as_str()],
            Loc::Obj(_, rs) => rs.iter().map(String::as_str).collect(),
            Loc::Chan { a, b, .. } => vec![a.as_str(), b.as_str()],
            _ => Vec::new(),
        }
    }

    /// Rename roles (formal → actual).
    pub fn subst(&self, map: &dyn Fn(&str) -> String) -> Loc {
        match self {
            Loc::At(r) => Loc::At(map(r)),
            Loc::Obj(c, rs) => Loc::Obj(c.clone(), rs.iter().map(|r| map(r)).collect()),
            Loc::Chan { a, b, di } => Loc::Chan {
                a: map(a),
                b: map(b),
                di: *di,
            },
            other => other.clone(),
        }
    }

    /// May a value located at `actual` be used where `self` is expected? Role-free values fit any
    /// one-role location; a symmetric channel fits either orientation.
    pub fn accepts(&self, actual: &Loc) -> bool {
        match (self, actual) {
            (Loc::Unknown, _) | (_, Loc::Unknown) => true,
            (Loc::At(_) | Loc::Every, Loc::Every) => true,
            (
                Loc::Chan { a, b, di: false },
                Loc::Chan {
                    a: a2,
                    b: b2,
                    di: false,
                },
            ) => (a == a2 && b == b2) || (a == b2 && b == a2),
            (x, y) => x == y,
        }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Every => write!(f, "everywhere"),
            Loc::At(r) => write!(f, "{r}"),
            Loc::Obj(c, rs) => write!(f, "{c}[{}]", rs.join(", ")),
            Loc::Chan { a, b, di } => {
                write!(f, "{}[{a}, {b}]", if *di { "DiChannel" } else { "Channel" })
            }
            Loc::NoValue => write!(f, "no value"),
            Loc::Unknown => write!(f, "unknown"),
        }
    }
}
