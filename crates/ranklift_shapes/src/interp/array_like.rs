//! The project's ndarray subclasses and array-protocol classes, found by syntax.
//!
//! Trigger: a class of the project derives from `ndarray` (directly or through other project
//! classes), or defines `__array_ufunc__`, `__array_function__`, `__array_finalize__`,
//! `__array_wrap__` or `__array_priority__`.
//!
//! Effect: the attribute names such a class and its project bases define (methods,
//! properties, class variables, `self.X = ...` stores) are collected once per project. Reading
//! one of them on an array value is then only a *possible* AttributeError.
//!
//! Why: NumPy functions return instances of these classes when given one (`np.squeeze(m)` of
//! an astropy `Masked` array is a `Masked` array; `data.view(cls)` makes one), and the analysis
//! does not track which arrays are subclass instances. The defining module may also never run
//! in the analysis (an import cut by fuel), so its classes are found by syntax, not execution.
//!
//! ```python
//! class Masked(np.ndarray):
//!     @property
//!     def unmasked(self): ...
//!
//! def f(m):
//!     return np.squeeze(m).unmasked   # before: certain E011; after: possible only
//! ```

use std::sync::Arc;

use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Stmt};

use super::state::{FxMap, FxSet};

const HOOKS: &[&str] = &[
    "__array_ufunc__",
    "__array_function__",
    "__array_finalize__",
    "__array_wrap__",
    "__array_priority__",
];

/// Classes NumPy itself subclasses from `ndarray`.
const NUMPY_ARRAY_CLASSES: &[&str] = &["ndarray", "recarray", "matrix", "MaskedArray", "memmap"];

#[derive(Default)]
struct Class {
    bases: Vec<String>,
    names: Vec<Arc<str>>,
    hook: bool,
}

/// Attribute names of every array-like class in `suites` (and of its project bases).
pub fn attrs<'a>(suites: impl IntoIterator<Item = &'a [Stmt]>) -> FxSet<Arc<str>> {
    let mut classes: FxMap<String, Vec<Class>> = FxMap::default();
    let mut finder = Finder(&mut classes);
    for suite in suites {
        for s in suite {
            finder.visit_stmt(s);
        }
    }
    // Array-like class names, to a fixed point over bases (by simple name).
    let mut like: FxSet<&str> = NUMPY_ARRAY_CLASSES.iter().copied().collect();
    loop {
        let before = like.len();
        for (name, defs) in &classes {
            if defs
                .iter()
                .any(|c| c.hook || c.bases.iter().any(|b| like.contains(b.as_str())))
            {
                like.insert(name.as_str());
            }
        }
        if like.len() == before {
            break;
        }
    }
    let mut out = FxSet::default();
    let mut stack: Vec<&str> = like
        .iter()
        .copied()
        .filter(|n| classes.contains_key(*n))
        .collect();
    let mut seen: FxSet<&str> = FxSet::default();
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        for c in classes.get(n).into_iter().flatten() {
            out.extend(c.names.iter().cloned());
            stack.extend(c.bases.iter().map(String::as_str));
        }
    }
    out
}

/// Collects every class definition, nested ones included.
struct Finder<'m>(&'m mut FxMap<String, Vec<Class>>);

impl<'b> Visitor<'b> for Finder<'_> {
    fn visit_stmt(&mut self, s: &'b Stmt) {
        if let Stmt::ClassDef(c) = s {
            let mut class = Class::default();
            if let Some(args) = &c.arguments {
                for b in args.args.iter() {
                    match b {
                        Expr::Name(n) => class.bases.push(n.id.to_string()),
                        Expr::Attribute(a) => class.bases.push(a.attr.to_string()),
                        _ => {}
                    }
                }
            }
            let mut stores = SelfStores::default();
            for s in &c.body {
                match s {
                    Stmt::FunctionDef(f) => class.names.push(f.name.as_str().into()),
                    Stmt::Assign(a) => {
                        for t in &a.targets {
                            if let Expr::Name(n) = t {
                                class.names.push(n.id.as_str().into());
                            }
                        }
                    }
                    Stmt::AnnAssign(a) => {
                        if let Expr::Name(n) = &*a.target {
                            class.names.push(n.id.as_str().into());
                        }
                    }
                    _ => {}
                }
                stores.visit_stmt(s);
            }
            class.hook = class.names.iter().any(|n| HOOKS.contains(&&**n));
            class.names.extend(stores.0);
            self.0.entry(c.name.to_string()).or_default().push(class);
        }
        walk_stmt(self, s);
    }
}

/// Names assigned as `name.X = ...` in a class body (`self.unit = unit` in its methods).
#[derive(Default)]
struct SelfStores(Vec<Arc<str>>);

impl<'b> Visitor<'b> for SelfStores {
    fn visit_expr(&mut self, e: &'b Expr) {
        if let Expr::Attribute(a) = e
            && a.ctx.is_store()
            && matches!(&*a.value, Expr::Name(_))
        {
            self.0.push(a.attr.as_str().into());
        }
        walk_expr(self, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(src: &str) -> Vec<String> {
        let file = ranklift_python::source::SourceFile::from_bytes(
            std::path::Path::new("t.py"),
            src.as_bytes(),
        )
        .expect("decodes");
        let parsed = ranklift_python::parse::ParsedModule::parse(file, "t.py").expect("parses");
        let mut v: Vec<String> = attrs([parsed.suite()])
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn subclasses_and_their_bases_contribute_names() {
        let src = "import numpy as np\n\
class Base:\n    @property\n    def unmasked(self): return 1\n\
class M(Base, np.ndarray):\n    def __new__(cls, a):\n        self = a.view(cls)\n        self._mask = None\n        return self\n\
class Q(M):\n    unit = None\n\
class Plain:\n    other = 1\n";
        assert_eq!(names(src), ["__new__", "_mask", "unit", "unmasked"]);
    }

    #[test]
    fn a_protocol_hook_makes_a_class_array_like() {
        let src = "class D:\n    def __array_function__(self, f, t, a, k): return 0\n    def distribution(self): return 0\n";
        assert_eq!(names(src), ["__array_function__", "distribution"]);
        assert!(names("class P:\n    x = 1\n").is_empty());
    }
}
