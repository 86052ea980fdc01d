//! Language model: `%`-formatting of strings.
//!
//! **Trigger:** `"text" % value` / `"text" % (a, b)` with a known format string.
//!
//! **Result:** the string is known when every conversion is a plain `%d`, `%i` or `%s` (or
//! `%%`) and each value it takes is a known int, bool or string; unknown text otherwise (a
//! width, a precision, `%f`, a mapping key, the wrong number of values).
//!
//! **Why:** models name the modules they add with it (`self.features.add_module("denseblock%d"
//! % (i + 1), block)`): with unknown names the blocks could not be found again as attributes,
//! as f-string names can (`fstring.rs`).
//!
//! ```python
//! for i in range(2):
//!     features.add_module("block%d" % (i + 1), nn.Conv2d(16, 16, 1))   # block1, block2
//! ```
use super::value::{Int, Seq, Value};

/// `format % args`, when known (see the module doc).
pub(crate) fn percent_format(format: &str, args: &Value) -> Option<String> {
    let values: Vec<&Value> = match args {
        Value::Tuple(Seq::Exact(items)) => items.iter().collect(),
        Value::Tuple(_) => return None,
        v => vec![v],
    };
    let mut values = values.into_iter();
    let mut out = String::with_capacity(format.len() + 8);
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let conv = chars.next()?;
        if conv == '%' {
            out.push('%');
            continue;
        }
        let v = values.next()?;
        let piece = match (conv, v) {
            ('d' | 'i' | 's', Value::Int(Int::Const(n))) => n.to_string(),
            ('d' | 'i', Value::Bool(Some(b))) => u8::from(*b).to_string(),
            ('s', Value::Bool(Some(b))) => if *b { "True" } else { "False" }.to_owned(),
            ('s', Value::Str(Some(s))) => s.to_string(),
            _ => return None,
        };
        out.push_str(&piece);
    }
    // Python raises when values are left over ("not all arguments converted").
    values.next().is_none().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_conversions_give_the_string_python_gives() {
        // Expected strings as CPython 3.11 prints them.
        let i = Value::int;
        assert_eq!(
            percent_format("denseblock%d", &i(2)).as_deref(),
            Some("denseblock2")
        );
        let pair = Value::Tuple(Seq::Exact(vec![Value::Str(Some("a".into())), i(3)].into()));
        assert_eq!(percent_format("%s_%i%%", &pair).as_deref(), Some("a_3%"));
        assert_eq!(
            percent_format("%s", &Value::Bool(Some(true))).as_deref(),
            Some("True")
        );
        // Unknown: a float conversion, a width, too few or too many values, an unknown int.
        assert_eq!(percent_format("%f", &i(1)), None);
        assert_eq!(percent_format("%3d", &i(1)), None);
        assert_eq!(percent_format("%d %d", &i(1)), None);
        assert_eq!(percent_format("x", &i(1)), None);
        assert_eq!(percent_format("%d", &Value::Int(Int::ANY)), None);
    }
}
