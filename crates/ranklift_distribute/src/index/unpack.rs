//! Names bound by unpacking (`train_ds, test_ds = make_datasets()`), and the value each one gets
//! when the right-hand side is a literal tuple or a project function that returns one.

use ruff_python_ast::{Expr, Stmt};

use super::{Callee, Index, Scope};

/// `name` as the `index`-th of `len` plain names of a tuple or list target, and the value unpacked.
pub struct Unpacked<'a> {
    pub value: &'a Expr,
    pub index: usize,
    pub len: usize,
}

impl<'a> Index<'a> {
    /// The unpacking assignments that bind `name` in `scope` (the function's if it has any plain
    /// or unpacking binding of it, else the module's), in source order. Targets with a starred or
    /// nested element are left out: no fixed position.
    pub fn unpacked(&self, scope: Scope, name: &str) -> (Scope, Vec<Unpacked<'a>>) {
        let module_scope = Scope {
            module: scope.module,
            func: None,
        };
        for s in [scope, module_scope] {
            let found: Vec<Unpacked<'a>> = self.modules[s.module]
                .stmts
                .clone()
                .filter_map(|st| {
                    let info = &self.stmts[st];
                    let Stmt::Assign(a) = info.stmt else {
                        return None;
                    };
                    if info.scope != s {
                        return None;
                    }
                    a.targets.iter().find_map(|t| {
                        let elts = match t {
                            Expr::Tuple(t) => &t.elts,
                            Expr::List(l) => &l.elts,
                            _ => return None,
                        };
                        if !elts.iter().all(|e| matches!(e, Expr::Name(_))) {
                            return None;
                        }
                        let index = elts
                            .iter()
                            .position(|e| matches!(e, Expr::Name(n) if n.id.as_str() == name))?;
                        Some(Unpacked {
                            value: &a.value,
                            index,
                            len: elts.len(),
                        })
                    })
                })
                .collect();
            if !found.is_empty() || s == module_scope || !self.assignments(s, name).1.is_empty() {
                return (s, found);
            }
        }
        (module_scope, Vec::new())
    }

    /// The expression `u` gives its name: the element of a literal tuple or list of the right
    /// length, or of the single `return` of the project function called (with that function's
    /// scope).
    pub fn unpacked_element(&self, scope: Scope, u: &Unpacked<'a>) -> Option<(Scope, &'a Expr)> {
        let element = |e: &'a Expr| match e {
            Expr::Tuple(t) if t.elts.len() == u.len => t.elts.get(u.index),
            Expr::List(l) if l.elts.len() == u.len => l.elts.get(u.index),
            _ => None,
        };
        if let Some(e) = element(u.value) {
            return Some((scope, e));
        }
        let Expr::Call(c) = u.value else { return None };
        let Some(Callee::Func(f)) = self.resolve_call(scope, c) else {
            return None;
        };
        let fs = Scope {
            module: self.funcs[f].module,
            func: Some(f),
        };
        let mut returns = self.modules[fs.module].stmts.clone().filter_map(|st| {
            let info = &self.stmts[st];
            match info.stmt {
                Stmt::Return(r) if info.scope == fs => Some(r.value.as_deref()),
                _ => None,
            }
        });
        let (Some(Some(one)), None) = (returns.next(), returns.next()) else {
            return None;
        };
        element(one).map(|e| (fs, e))
    }
}
