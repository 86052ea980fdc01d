//! Files only rank 0 writes, and the statements that read them back: framework-neutral
//! knowledge shared by the rank-0 rules of every target (TensorFlow's `rank0_only`, PyTorch's
//! `rank0_reads`).
//!
//! A path is recognised by its text: a string literal of a write (`"losses.npy"`,
//! `'image_at_epoch_{:04d}.png'`) or an f-string, whose replacement fields all read as `{}`
//! (`f"losses_{epoch}.npy"` written in the training loop and `f"losses_{e}.npy"` read after
//! it are the same files), or a module-level name passed to the write (`anim_file`).
use ruff_python_ast::{Expr, Stmt};

use crate::index::{Index, StmtId};

/// String literals and names in the arguments of a statement's calls.
pub fn path_tokens(stmt: &Stmt) -> (Vec<String>, Vec<String>) {
    use ruff_python_ast::visitor::{self, Visitor};
    struct T(Vec<String>, Vec<String>);
    impl<'a> Visitor<'a> for T {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Call(c) = e {
                for a in c
                    .arguments
                    .args
                    .iter()
                    .chain(c.arguments.keywords.iter().map(|k| &k.value))
                {
                    match a {
                        Expr::Name(n) => self.1.push(n.id.to_string()),
                        _ => collect_literals(a, &mut self.0),
                    }
                }
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut t = T(Vec::new(), Vec::new());
    t.visit_stmt(stmt);
    (t.0, t.1)
}

/// The path-like string literals in `e` (at least 5 characters, with a `.` or a `/`), each with
/// its replacement fields read as `{}`; an f-string counts as one literal, its interpolations
/// as `{}`.
pub fn collect_literals(e: &Expr, out: &mut Vec<String>) {
    use ruff_python_ast::visitor::{self, Visitor};
    struct L<'o>(&'o mut Vec<String>);
    impl L<'_> {
        fn push(&mut self, v: &str) {
            if v.len() >= 5 && (v.contains('.') || v.contains('/')) {
                self.0.push(fields_as_braces(v));
            }
        }
    }
    impl<'a> Visitor<'a> for L<'_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            match e {
                Expr::StringLiteral(sl) => self.push(sl.value.to_str()),
                Expr::FString(f) => {
                    use ruff_python_ast::{FStringPart, InterpolatedStringElement};
                    let mut text = String::new();
                    for part in f.value.iter() {
                        match part {
                            FStringPart::Literal(l) => text.push_str(&l.value),
                            FStringPart::FString(fs) => {
                                for el in &fs.elements {
                                    match el {
                                        InterpolatedStringElement::Literal(l) => {
                                            text.push_str(&l.value);
                                        }
                                        InterpolatedStringElement::Interpolation(_) => {
                                            text.push_str("{}");
                                        }
                                    }
                                }
                            }
                        }
                    }
                    self.push(&text);
                    return;
                }
                _ => {}
            }
            visitor::walk_expr(self, e);
        }
    }
    L(out).visit_expr(e);
}

/// `image_at_epoch_{:04d}.png` → `image_at_epoch_{}.png`: what a field is filled with is not
/// known, only where it is.
fn fields_as_braces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0;
    for ch in text.chars() {
        match ch {
            '{' => {
                if depth == 0 {
                    out.push('{');
                }
                depth += 1;
            }
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push('}');
                }
            }
            _ if depth > 0 => {}
            c => out.push(c),
        }
    }
    out
}

/// The paths guarded writes use: their string literals, and the names in their arguments at
/// module level (where `anim_file = 'dcgan.gif'` lives; a name is a path only there).
pub fn rank0_paths(idx: &Index, guarded: &[StmtId]) -> (Vec<String>, Vec<(usize, String)>) {
    let mut lits: Vec<String> = Vec::new();
    let mut names: Vec<(usize, String)> = Vec::new();
    for &g in guarded {
        let (l, n) = path_tokens(idx.stmts[g].stmt);
        lits.extend(l);
        if idx.stmts[g].scope.func.is_none() {
            names.extend(n.into_iter().map(|n| (idx.stmts[g].scope.module, n)));
        }
    }
    (lits, names)
}

/// Does the statement call something that reads a file (`PIL.Image.open`, `imageio.imread`,
/// `embed_file`, `open`, a notebook's `display.Image(filename=...)`)? Only those can fail on a
/// rank that does not have the file; a path merely computed (`os.path.dirname(checkpoint_path)`)
/// must stay on every rank.
pub fn opens_a_file(stmt: &Stmt) -> bool {
    ruff_python_ast::helpers::any_over_body(std::slice::from_ref(stmt), |e| {
        let Expr::Call(c) = e else { return false };
        let name = match &*c.func {
            Expr::Attribute(a) => a.attr.as_str(),
            Expr::Name(n) => n.id.as_str(),
            _ => return false,
        };
        let from_file = || c.arguments.find_keyword("filename").is_some();
        matches!(
            name,
            "open" | "imread" | "imopen" | "embed_file" | "read_file" | "read" | "load_img"
        ) || (matches!(name, "Image" | "SVG") && from_file())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literals(src: &str) -> Vec<String> {
        let file = ranklift_python::source::SourceFile::from_bytes(
            std::path::Path::new("m.py"),
            src.as_bytes(),
        )
        .unwrap();
        let m = ranklift_python::parse::ParsedModule::parse(file, "m.py").unwrap();
        let Stmt::Expr(e) = &m.suite()[0] else {
            unreachable!()
        };
        let mut out = Vec::new();
        collect_literals(&e.value, &mut out);
        out
    }

    #[test]
    fn a_path_reads_the_same_whatever_fills_its_fields() {
        assert_eq!(
            literals("np.save(f'losses_{epoch}.npy', a)"),
            ["losses_{}.npy"]
        );
        assert_eq!(literals("np.load(f'losses_{e}.npy')"), ["losses_{}.npy"]);
        assert_eq!(
            literals("Image.open('image_at_epoch_{:04d}.png'.format(n))"),
            ["image_at_epoch_{}.png"]
        );
        assert_eq!(
            literals("plt.savefig(f'out/{name!r:>{width}}.png')"),
            ["out/{}.png"]
        );
        // Not a path: too short, or neither a dot nor a slash.
        assert!(literals("print('epoch', f'{i}')").is_empty());
    }
}
