//! Shape messages that show the shapes and where they came from.
//!
//! **Trigger:** a library error (W5xx) raised by a model that knew its array operands.
//!
//! **Effect:** the headline names the failing expression and its operands' shapes, then the
//! short reason (`x @ self.w: (32, 128) @ (256, 10): matmul: size 256 is different from 128`);
//! NumPy's own wording — what the user will see at run time — is kept as the diagnostic's
//! `runtime_message` (JSON, SARIF, the editor's related information). Notes trace each operand
//! that is a name or an attribute back to the assignment that made an array of that shape, with
//! the calls that were running then (`self.w` is (256, 10): made here, reached from line 26),
//! and say through which calls the failing line was reached.
//!
//! **Why:** NumPy's gufunc text (`Input operand 1 has a mismatch in its core dimension 0, with
//! gufunc signature (n?,k),(k,m?)->(n?,m?) (size 256 is different from 128)`) names neither
//! operand nor shape; the user has to reconstruct both, which is what the analysis knows.
//!
//! ```python
//! # before: mlp_bug.py:15:27: W504 ValueError: matmul: Input operand 1 has a mismatch ...
//! # after:  mlp_bug.py:15:27: W504 x @ self.w: (32, 128) @ (256, 10): matmul: size 256 is different from 128
//! #         note (line 11): `self.w` is (256, 10): made here, reached from line 26
//! ```

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::Shape;
use crate::interp::{Finding, Origin};

/// A finding's message with its operands, and notes located in `module`'s source.
pub struct Explained {
    pub headline: String,
    /// (range in the finding's module, message)
    pub notes: Vec<(TextRange, String)>,
}

/// `(32, 128)`: Python's tuple display (what `x.shape` prints).
pub fn shape_text(s: &Shape) -> String {
    match s {
        Shape::AnyRank => "(...)".to_owned(),
        Shape::Known(d) if d.len() == 1 => format!("({},)", d[0]),
        Shape::Known(d) => format!(
            "({})",
            d.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The short reason after the shapes, from NumPy's message (without the exception class).
fn reason(code: &str, numpy: &str) -> String {
    let body = numpy.split_once(": ").map_or(numpy, |(_, b)| b).trim_end();
    if let Some(start) = body.rfind("(size ")
        && body.ends_with(')')
    {
        let what = body.split(':').next().unwrap_or("").trim();
        return format!("{what}: {}", &body[start + 1..body.len() - 1]);
    }
    match code {
        "W502" => "cannot be broadcast together".to_owned(),
        _ => body.to_owned(),
    }
}

/// Explain `f` (found in module `f.module`, whose source is `text` and statements `suite`);
/// `origins` are the run's. `line_of` gives a 1-based line for a range of a module.
pub fn explain(
    f: &Finding,
    text: &str,
    suite: &[Stmt],
    origins: &[Origin],
    line_of: &dyn Fn(u32, TextRange) -> Option<usize>,
) -> Option<Explained> {
    if f.operands.is_empty() || !f.code.starts_with("W5") {
        return None;
    }
    let expr = find_expr(suite, f.range)?;
    let src = |r: TextRange| text.get(usize::from(r.start())..usize::from(r.end()));
    let short = |s: &str| -> String {
        let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
        if one_line.chars().count() > 60 {
            format!("{}…", one_line.chars().take(59).collect::<String>())
        } else {
            one_line
        }
    };
    let shapes: Vec<String> = f.operands.iter().map(shape_text).collect();
    let (what, parts): (String, Vec<&Expr>) = match expr {
        Expr::BinOp(b) => {
            let op = f.op.unwrap_or("?");
            (
                format!(
                    "{} {op} {}: {}",
                    short(src(b.left.range())?),
                    short(src(b.right.range())?),
                    shapes.join(&format!(" {op} "))
                ),
                vec![&*b.left, &*b.right],
            )
        }
        Expr::Call(c) => {
            let mut parts: Vec<&Expr> = Vec::new();
            if let Expr::Attribute(a) = &*c.func {
                parts.push(&a.value);
            }
            for a in c.arguments.args.iter() {
                match a {
                    Expr::List(l) => parts.extend(l.elts.iter()),
                    Expr::Tuple(t) => parts.extend(t.elts.iter()),
                    a => parts.push(a),
                }
            }
            let on = match shapes.len() {
                1 => format!(" on {}", shapes[0]),
                _ => format!(" with {}", shapes.join(" and ")),
            };
            (format!("{}{on}", short(src(c.range())?)), parts)
        }
        _ => return None,
    };
    let headline = format!("{what}: {}", reason(f.code, &f.message));
    let chain_text = |chain: &[(u32, TextRange)]| -> Option<String> {
        let lines: Vec<String> = chain
            .iter()
            .filter_map(|(m, r)| line_of(*m, *r).map(|l| l.to_string()))
            .collect();
        (!lines.is_empty()).then(|| lines.join(" → "))
    };
    let mut notes = Vec::new();
    for part in parts {
        if !matches!(part, Expr::Name(_) | Expr::Attribute(_)) {
            continue;
        }
        let Some(name) = src(part.range()) else {
            continue;
        };
        // The most recent binding of that name or attribute, in this module, to an array of
        // one of the operands' shapes.
        let Some(o) = origins.iter().rev().find(|o| {
            o.module == f.module
                && f.operands.contains(&o.shape)
                && src(o.target) == Some(name)
                && o.stmt != f.range
        }) else {
            continue;
        };
        let mut msg = format!("`{name}` is {}: made here", shape_text(&o.shape));
        if let Some(c) = chain_text(&o.chain) {
            msg.push_str(&format!(", reached from line {c}"));
            // The outermost call, when it is in this module, is what the user wrote
            // (`Dense(256, 10)`).
            if let Some((m, r)) = o.chain.first()
                && *m == f.module
                && let Some(call) = src(*r)
            {
                msg.push_str(&format!(" (`{}`)", short(call)));
            }
        }
        if !notes.iter().any(|(r, _)| *r == o.stmt) {
            notes.push((o.stmt, msg));
        }
    }
    // How the failing line was reached: the innermost call in this module.
    if let Some(c) = chain_text(&f.chain)
        && let Some((_, r)) = f.chain.iter().rev().find(|(m, _)| *m == f.module)
    {
        notes.push((
            *r,
            format!("the failing line runs in this call (reached from line {c})"),
        ));
    }
    Some(Explained { headline, notes })
}

/// The expression of `suite` whose range is exactly `range`.
fn find_expr(suite: &[Stmt], range: TextRange) -> Option<&Expr> {
    struct Find<'a> {
        range: TextRange,
        found: Option<&'a Expr>,
    }
    impl<'a> Visitor<'a> for Find<'a> {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if self.found.is_none() && s.range().contains_range(self.range) {
                visitor::walk_stmt(self, s);
            }
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            if self.found.is_some() || !e.range().contains_range(self.range) {
                return;
            }
            if e.range() == self.range && matches!(e, Expr::BinOp(_) | Expr::Call(_)) {
                self.found = Some(e);
                return;
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut f = Find { range, found: None };
    f.visit_body(suite);
    f.found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons() {
        assert_eq!(
            reason(
                "W504",
                "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 256 is different from 128)"
            ),
            "matmul: size 256 is different from 128"
        );
        assert_eq!(
            reason(
                "W502",
                "ValueError: operands could not be broadcast together with shapes (4,3) (4,) "
            ),
            "cannot be broadcast together"
        );
        assert_eq!(
            reason(
                "W505",
                "ValueError: cannot reshape array of size 10 into shape (3,3)"
            ),
            "cannot reshape array of size 10 into shape (3,3)"
        );
    }
}
