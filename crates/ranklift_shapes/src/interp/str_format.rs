//! Library model: `str.format`.
//!
//! **Trigger:** `"text {}".format(a, ...)` on a string whose text is known.
//!
//! **Result:** the string is known when every replacement field is plain — `{}`, `{0}` or
//! `{name}`, with no attribute or index, no format spec and no conversion but `!s` — and each
//! value it takes is a known int, bool or string (`{{` and `}}` are braces); unknown text
//! otherwise, and on anything Python would raise for (a missing argument, a stray brace,
//! automatic and manual numbering mixed).
//!
//! **Why:** models name the modules they add with it (a DenseNet's block adds
//! `"denselayer{}".format(i + 1)`): a module added under an unknown name is still run, but
//! cannot be found again as an attribute, and a key built with it reads nothing back from a
//! dict of layers.
//!
//! ```python
//! for i in range(2):
//!     block.add_module("layer{}".format(i + 1), nn.Conv2d(16, 16, 1))   # layer1, layer2
//! ```
use std::sync::Arc;

use super::value::{Int, Value};

/// The text a value takes in a plain replacement field (`str.format`'s `{}`, an f-string's
/// `{x}`), when known.
pub(crate) fn plain(v: &Value) -> Option<String> {
    match v {
        Value::Int(Int::Const(n)) => Some(n.to_string()),
        Value::Bool(Some(b)) => Some(if *b { "True" } else { "False" }.to_owned()),
        Value::Str(Some(s)) => Some(s.to_string()),
        _ => None,
    }
}

/// `format.format(*pos, **kw)`, when known (see the module doc).
pub(crate) fn str_format(format: &str, pos: &[Value], kw: &[(Arc<str>, Value)]) -> Option<String> {
    let mut out = String::with_capacity(format.len() + 8);
    let mut chars = format.chars().peekable();
    // Python numbers `{}` fields in order and refuses to mix them with `{0}`.
    let (mut next_auto, mut auto, mut manual) = (0usize, false, false);
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '}' => return None,
            '{' => {
                let mut field = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        '{' => return None,
                        c => field.push(c),
                    }
                }
                let name = field.strip_suffix("!s").unwrap_or(&field);
                let value = if name.is_empty() {
                    auto = true;
                    next_auto += 1;
                    pos.get(next_auto - 1)?
                } else if let Ok(i) = name.parse::<usize>() {
                    manual = true;
                    pos.get(i)?
                } else if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    &kw.iter().find(|(k, _)| &**k == name)?.1
                } else {
                    // An attribute, an index, a format spec or another conversion.
                    return None;
                };
                if auto && manual {
                    return None;
                }
                out.push_str(&plain(value)?);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_fields_give_the_string_python_gives() {
        // Expected strings as CPython 3.11 prints them.
        let i = Value::int;
        let s = |t: &str| Value::Str(Some(t.into()));
        assert_eq!(
            str_format("denselayer{}", &[i(2)], &[]).as_deref(),
            Some("denselayer2")
        );
        assert_eq!(
            str_format("{1}_{0}{{x}}", &[s("a"), i(3)], &[]).as_deref(),
            Some("3_a{x}")
        );
        assert_eq!(
            str_format(
                "{stage}.{block!s}",
                &[],
                &[
                    ("stage".into(), i(1)),
                    ("block".into(), Value::Bool(Some(true)))
                ]
            )
            .as_deref(),
            Some("1.True")
        );
        // Unknown: a format spec, `!r`, an attribute, a missing argument, a stray brace, mixed
        // numbering, an unknown int.
        assert_eq!(str_format("{:>4}", &[i(1)], &[]), None);
        assert_eq!(str_format("{!r}", &[s("a")], &[]), None);
        assert_eq!(str_format("{0.real}", &[i(1)], &[]), None);
        assert_eq!(str_format("{} {}", &[i(1)], &[]), None);
        assert_eq!(str_format("a}", &[], &[]), None);
        assert_eq!(str_format("{}{0}", &[i(1)], &[]), None);
        assert_eq!(str_format("{}", &[Value::Int(Int::ANY)], &[]), None);
    }
}
