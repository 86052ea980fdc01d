//! Language model: f-strings.
//!
//! **Trigger:** `f"..."` (and f-strings implicitly concatenated with literals).
//!
//! **Result:** the interpolated expressions are evaluated (a shape error inside one is found);
//! the string is known when every one of them is a known int, bool or string formatted plainly
//! (no format spec; no conversion but `!s`), unknown text otherwise.
//!
//! **Why:** models name their blocks with them (`layers[f"encoder_layer_{i}"] = EncoderBlock(...)`
//! then `nn.Sequential(layers)`): with unknown keys the dict of blocks, and the whole encoder,
//! was unknown.
//!
//! ```python
//! for i in range(2):
//!     layers[f"block_{i}"] = nn.Linear(8, 8)   # keys "block_0", "block_1"
//! ```
use std::fmt::Write;

use ruff_python_ast::{ConversionFlag, ExprFString, FStringPart, InterpolatedStringElement};

use super::Interp;
use super::state::State;
use super::value::Value;

impl<'a> Interp<'a> {
    pub(crate) fn eval_fstring(&mut self, f: &'a ExprFString, st: &mut State) -> Value {
        let mut text = Some(String::new());
        for part in f.value.iter() {
            match part {
                FStringPart::Literal(l) => {
                    if let Some(t) = text.as_mut() {
                        t.push_str(&l.value);
                    }
                }
                FStringPart::FString(fs) => {
                    for el in &fs.elements {
                        match el {
                            InterpolatedStringElement::Literal(l) => {
                                if let Some(t) = text.as_mut() {
                                    t.push_str(&l.value);
                                }
                            }
                            InterpolatedStringElement::Interpolation(i) => {
                                let v = self.eval(&i.expression, st);
                                let plain = i.format_spec.is_none()
                                    && i.debug_text.is_none()
                                    && matches!(
                                        i.conversion,
                                        ConversionFlag::None | ConversionFlag::Str
                                    );
                                let piece = plain.then(|| super::str_format::plain(&v)).flatten();
                                match (piece, text.as_mut()) {
                                    (Some(p), Some(t)) => {
                                        let _ = write!(t, "{p}");
                                    }
                                    _ => text = None,
                                }
                            }
                        }
                    }
                }
            }
        }
        Value::Str(text.map(Into::into))
    }
}
