//! Library model: `str` — methods, indexing and conversions of known strings.
//!
//! **Trigger:** a string whose text is known: `s.split(sep, maxsplit)` / `rsplit` /
//! `splitlines` / `partition`, `strip` and its kin, `lower` / `upper`, `replace`,
//! `startswith` / `endswith`, the `is...` tests, `find` / `index` / `count`, `sep.join(parts)`,
//! `s[i]` and `s[a:b:c]`, `float(s)`, `sub in s`.
//!
//! **Result:** what Python computes, as known values (a list of known strings, a number, a
//! truth). A string of unknown text gives the type only (a list of strings, an int), as before.
//!
//! **Why:** models decode their architecture from strings — EfficientNet's and MobileNet's
//! block definitions (`"r2_k3_s22_e6_i16_o24_se0.25"`, split at `_`, each option's digits
//! read with `int(...)`), layer specs like `"64-M-128"`, activation names. Left unknown, every
//! channel count decoded from one was unknown, and with it the whole network.
//!
//! ```python
//! ops = "r1_k3_i32_o16".split("_")
//! options = {op[0]: int(op[1:]) for op in ops}
//! nn.Conv2d(options["i"], options["o"], options["k"])  # Conv2d(32, 16, 3)
//! ```
use std::sync::Arc;

use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::State;
use super::value::{Int, Seq, Value};

/// Strings longer than this (in bytes) are not made by a method: the result's text is unknown.
const MAX_LEN: usize = 4096;
/// A split into more pieces than this gives a list of unknown length.
const MAX_PIECES: usize = 256;

fn text(s: impl Into<Arc<str>>) -> Value {
    Value::Str(Some(s.into()))
}

/// The text of each item of an exact sequence of known strings.
pub(crate) fn known_strs(v: &Value, st: &State) -> Option<Vec<Arc<str>>> {
    st.exact_items(v)?
        .iter()
        .map(|v| match v {
            Value::Str(Some(s)) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// `s[idx]` of a known string: one character or a slice (by code point, as Python indexes).
pub(crate) fn str_item(s: &str, idx: &Value) -> Value {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len() as i64;
    match idx {
        Value::Int(i) => match i.constant() {
            Some(i) if (-n..n).contains(&i) => {
                text(chars[(if i < 0 { i + n } else { i }) as usize].to_string())
            }
            _ => Value::Str(None),
        },
        Value::Slice(parts) => {
            let part = |p: &Option<Int>| match p {
                None => Some(None),
                Some(i) => i.constant().map(Some),
            };
            let (Some(a), Some(b), Some(c)) = (part(&parts[0]), part(&parts[1]), part(&parts[2]))
            else {
                return Value::Str(None);
            };
            let step = c.unwrap_or(1);
            if step == 0 {
                return Value::Str(None);
            }
            // Python's slice rules: bounds clamped into the string, negative ones from its end.
            let clamp = |x: i64, lo: i64, hi: i64| x.clamp(lo, hi);
            let norm = |x: i64| if x < 0 { x + n } else { x };
            let mut out = String::new();
            if step > 0 {
                let start = a.map_or(0, |x| clamp(norm(x), 0, n));
                let stop = b.map_or(n, |x| clamp(norm(x), 0, n));
                let mut i = start;
                while i < stop {
                    out.push(chars[i as usize]);
                    i += step;
                }
            } else {
                let start = a.map_or(n - 1, |x| clamp(norm(x), -1, n - 1));
                let stop = b.map_or(-1, |x| clamp(norm(x), -1, n - 1));
                let mut i = start;
                while i > stop {
                    out.push(chars[i as usize]);
                    i += step;
                }
            }
            text(out)
        }
        _ => Value::Str(None),
    }
}

/// `float(s)` of a known string, as Python parses it (surrounding spaces allowed).
pub(crate) fn parse_float(s: &str) -> Option<f64> {
    let t = s.trim();
    match t.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => Some(f64::INFINITY),
        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
        // A NaN is a float of no value the analysis keeps.
        "nan" | "+nan" | "-nan" => None,
        _ => t.parse::<f64>().ok(),
    }
}

/// `sub in s` for known strings.
pub(crate) fn contains(s: &Value, sub: &Value) -> Option<bool> {
    match (s, sub) {
        (Value::Str(Some(s)), Value::Str(Some(sub))) => Some(s.contains(&**sub)),
        _ => None,
    }
}

/// Python's `str.split(sep, maxsplit)` (`sep` `None`: runs of whitespace, no empty pieces).
fn split(s: &str, sep: Option<&str>, maxsplit: i64, from_right: bool) -> Option<Vec<String>> {
    let max = usize::try_from(maxsplit).ok();
    let pieces: Vec<String> = match sep {
        Some("") => return None,
        Some(sep) => match (max, from_right) {
            (None, _) => s.split(sep).map(str::to_owned).collect(),
            (Some(m), false) => s.splitn(m + 1, sep).map(str::to_owned).collect(),
            (Some(m), true) => {
                let mut v: Vec<String> = s.rsplitn(m + 1, sep).map(str::to_owned).collect();
                v.reverse();
                v
            }
        },
        None => {
            let words: Vec<&str> = s.split_whitespace().collect();
            match max {
                Some(m) if m < words.len() => {
                    // The rest after the first `m` words keeps its inner whitespace.
                    if from_right {
                        return None;
                    }
                    let mut rest = s.trim_start();
                    let mut v = Vec::new();
                    for _ in 0..m {
                        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                        v.push(rest[..end].to_owned());
                        rest = rest[end..].trim_start();
                    }
                    v.push(rest.to_owned());
                    v
                }
                _ => words.into_iter().map(str::to_owned).collect(),
            }
        }
    };
    (pieces.len() <= MAX_PIECES).then_some(pieces)
}

impl Interp<'_> {
    /// A list of the strings `pieces` (unknown length when too many), made at `range`.
    pub(crate) fn str_list(
        &mut self,
        pieces: Option<Vec<Value>>,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let seq = match pieces {
            Some(p) if p.len() <= MAX_PIECES => Seq::Exact(p.into()),
            _ => Seq::Summary(Box::new(Value::Str(None)), Int::Range(Some(0), None)),
        };
        self.alloc_list(seq, range.start(), st)
    }

    /// `s.name(args)` for a string `s` (its text known or not).
    pub(crate) fn call_str_method(
        &mut self,
        s: &Option<Arc<str>>,
        name: &str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let arg_str = |i: usize, n: &str| match args.get(i, n) {
            Some(Value::Str(Some(a))) => Some(Some(a.clone())),
            None | Some(Value::None) => Some(None),
            _ => None,
        };
        let int_arg = |i: usize, n: &str, default: i64| match args.get(i, n) {
            None => Some(default),
            Some(v) => v.as_int().and_then(|i| i.constant()),
        };
        let known = s.as_deref().filter(|_| !args.unknown);
        match name {
            "split" | "rsplit" => {
                let pieces = match (known, arg_str(0, "sep"), int_arg(1, "maxsplit", -1)) {
                    (Some(s), Some(sep), Some(max)) => {
                        split(s, sep.as_deref(), max, name == "rsplit")
                            .map(|p| p.into_iter().map(text).collect())
                    }
                    _ => None,
                };
                self.str_list(pieces, range, st)
            }
            "splitlines" => {
                let pieces = known
                    .filter(|_| args.pos.is_empty() && args.kw.is_empty())
                    .map(|s| s.lines().map(text).collect());
                self.str_list(pieces, range, st)
            }
            "partition" | "rpartition" => {
                let (Some(s), Some(Some(sep))) = (known, arg_str(0, "sep")) else {
                    return Value::Tuple(Seq::Exact(vec![Value::Str(None); 3].into()));
                };
                let at = if name == "partition" {
                    s.find(&*sep)
                } else {
                    s.rfind(&*sep)
                };
                let parts = match at {
                    Some(i) => [&s[..i], &sep[..], &s[i + sep.len()..]],
                    None if name == "partition" => [s, "", ""],
                    None => ["", "", s],
                };
                Value::Tuple(Seq::Exact(parts.map(text).to_vec().into()))
            }
            "strip" | "lstrip" | "rstrip" => {
                let (Some(s), Some(chars)) = (known, arg_str(0, "chars")) else {
                    return Value::Str(None);
                };
                let set: Option<Vec<char>> = chars.map(|c| c.chars().collect());
                let is = |c: char| {
                    set.as_ref()
                        .map_or(c.is_whitespace(), |set| set.contains(&c))
                };
                text(match name {
                    "strip" => s.trim_matches(is),
                    "lstrip" => s.trim_start_matches(is),
                    _ => s.trim_end_matches(is),
                })
            }
            "lower" | "upper" | "casefold" | "title" | "capitalize" | "swapcase" => {
                let Some(s) = known else {
                    return Value::Str(None);
                };
                match name {
                    "lower" | "casefold" => text(s.to_lowercase()),
                    "upper" => text(s.to_uppercase()),
                    _ => Value::Str(None),
                }
            }
            "replace" => match (
                known,
                arg_str(0, "old"),
                arg_str(1, "new"),
                int_arg(2, "count", -1),
            ) {
                (Some(s), Some(Some(old)), Some(Some(new)), Some(count)) if !old.is_empty() => {
                    let out = match usize::try_from(count) {
                        Ok(c) => s.replacen(&*old, &new, c),
                        Err(_) => s.replace(&*old, &new),
                    };
                    if out.len() <= MAX_LEN {
                        text(out)
                    } else {
                        Value::Str(None)
                    }
                }
                _ => Value::Str(None),
            },
            "startswith" | "endswith" => {
                let prefixes = match args.get(0, "prefix").or_else(|| args.get(0, "suffix")) {
                    Some(Value::Str(Some(p))) => Some(vec![p.clone()]),
                    Some(v) => known_strs(v, st),
                    None => None,
                };
                let (Some(s), Some(ps)) = (known, prefixes) else {
                    return Value::Bool(None);
                };
                if args.pos.len() > 1 {
                    return Value::Bool(None);
                }
                Value::Bool(Some(ps.iter().any(|p| {
                    if name == "startswith" {
                        s.starts_with(&**p)
                    } else {
                        s.ends_with(&**p)
                    }
                })))
            }
            "isdigit" | "isdecimal" | "isnumeric" | "isalpha" | "isalnum" | "isspace"
            | "islower" | "isupper" => {
                // Python's tests follow Unicode's tables; ASCII text is decided here.
                let Some(s) = known.filter(|s| args.pos.is_empty() && s.is_ascii()) else {
                    return Value::Bool(None);
                };
                let all = |f: fn(char) -> bool| !s.is_empty() && s.chars().all(f);
                Value::Bool(Some(match name {
                    "isdigit" | "isdecimal" => all(|c| c.is_ascii_digit()),
                    "isnumeric" => all(char::is_numeric),
                    "isalpha" => all(char::is_alphabetic),
                    "isalnum" => all(char::is_alphanumeric),
                    "isspace" => all(char::is_whitespace),
                    "islower" => {
                        s.chars().any(char::is_lowercase) && !s.chars().any(char::is_uppercase)
                    }
                    _ => s.chars().any(char::is_uppercase) && !s.chars().any(char::is_lowercase),
                }))
            }
            "find" | "rfind" | "count" => {
                let (Some(s), Some(Some(sub))) = (known, arg_str(0, "sub")) else {
                    return Value::Int(Int::ANY);
                };
                if args.pos.len() > 1 {
                    return Value::Int(Int::ANY);
                }
                // Offsets in code points, as Python counts.
                let at = |b: usize| s[..b].chars().count() as i64;
                Value::int(match name {
                    "find" => s.find(&*sub).map_or(-1, at),
                    "rfind" => s.rfind(&*sub).map_or(-1, at),
                    _ if sub.is_empty() => s.chars().count() as i64 + 1,
                    _ => s.matches(&*sub).count() as i64,
                })
            }
            "join" => {
                let parts = args.pos.first().and_then(|v| known_strs(v, st));
                match (known, parts) {
                    (Some(sep), Some(parts)) => {
                        let out = parts.iter().map(|p| &**p).collect::<Vec<_>>().join(sep);
                        if out.len() <= MAX_LEN {
                            text(out)
                        } else {
                            Value::Str(None)
                        }
                    }
                    _ => Value::Str(None),
                }
            }
            "removeprefix" | "removesuffix" => {
                match (known, arg_str(0, "prefix").or_else(|| arg_str(0, "suffix"))) {
                    (Some(s), Some(Some(a))) => text(if name == "removeprefix" {
                        s.strip_prefix(&*a).unwrap_or(s)
                    } else {
                        s.strip_suffix(&*a).unwrap_or(s)
                    }),
                    _ => Value::Str(None),
                }
            }
            "index" | "rindex" => Value::Int(Int::Range(Some(0), None)),
            "format" => Value::Str(
                known
                    .and_then(|s| super::str_format::str_format(s, &args.pos, &args.kw))
                    .filter(|out| out.len() <= MAX_LEN)
                    .map(Into::into),
            ),
            // `encode` makes bytes, which are not strings here (`.decode` of them is no error).
            "encode" => Value::Top,
            // `zfill`, `center`, ...: a string of unknown text.
            _ => Value::Str(None),
        }
    }
}
