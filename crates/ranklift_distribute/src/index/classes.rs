//! Classes and the project symbols qualified names denote: re-exports through packages, methods
//! through base classes, and whether a class is a model.

use std::collections::HashSet;

use super::{ClassId, ClassInfo, FuncId, Index, Symbol};
use crate::tf::names as tf;

impl<'a> Index<'a> {
    /// The project symbol a qualified name denotes: a module-level function or class.
    pub(super) fn project_symbol(&self, qual: &str) -> Option<Symbol> {
        self.project_symbol_within(qual, 4)
    }

    /// [`Self::project_symbol`], following a package's re-exports (`from .trainer import
    /// Trainer` in `trainer/__init__.py` makes `trainer.Trainer` the class) `depth` times.
    pub(super) fn project_symbol_within(&self, qual: &str, depth: usize) -> Option<Symbol> {
        let (modname, name) = qual.rsplit_once('.')?;
        let m = self.project.module(modname)?;
        if let Some(&f) = self.modules[m].funcs.get(name) {
            return Some(Symbol::Func(f));
        }
        if let Some(&c) = self.modules[m].classes.get(name) {
            return Some(Symbol::Class(c));
        }
        if depth > 0
            && let Some(q) = self.modules[m].aliases.get(name)
            && q != qual
            && let Some(sym) = self.project_symbol_within(q, depth - 1)
        {
            return Some(sym);
        }
        // `module.Class.method`
        let (modname2, cls) = modname.rsplit_once('.')?;
        let m2 = self.project.module(modname2)?;
        let &c = self.modules[m2].classes.get(cls)?;
        self.method(c, name).map(Symbol::Func)
    }

    /// The first answer `f` gives for the class or one of its project base classes (depth first,
    /// each class once).
    pub(super) fn in_hierarchy<T>(
        &self,
        class: ClassId,
        f: impl Fn(&ClassInfo<'a>) -> Option<T>,
    ) -> Option<T> {
        let mut seen = HashSet::new();
        let mut todo = vec![class];
        while let Some(c) = todo.pop() {
            if !seen.insert(c) {
                continue;
            }
            if let Some(t) = f(&self.classes[c]) {
                return Some(t);
            }
            todo.extend(self.base_classes(c));
        }
        None
    }

    /// A method of a class or of its project base classes.
    pub fn method(&self, class: ClassId, name: &str) -> Option<FuncId> {
        self.in_hierarchy(class, |c| c.methods.get(name).copied())
    }

    /// The project classes `c` derives from, transitively (not `c` itself).
    pub fn ancestors(&self, c: ClassId) -> Vec<ClassId> {
        let mut out: Vec<ClassId> = Vec::new();
        let mut todo = self.base_classes(c);
        while let Some(b) = todo.pop() {
            if b == c || out.contains(&b) {
                continue;
            }
            out.push(b);
            todo.extend(self.base_classes(b));
        }
        out
    }

    pub(super) fn base_classes(&self, c: ClassId) -> Vec<ClassId> {
        let m = self.classes[c].module;
        self.classes[c]
            .bases
            .iter()
            .filter_map(
                |b| match self.qualify(m, b).and_then(|q| self.project_symbol(&q)) {
                    Some(Symbol::Class(b)) => Some(b),
                    _ => None,
                },
            )
            .collect()
    }

    /// True if the class is, transitively, a Keras model or layer (or a `tf.Module`).
    pub fn is_model_class(&self, class: ClassId) -> bool {
        let mut seen = HashSet::new();
        let mut todo = vec![class];
        while let Some(c) = todo.pop() {
            if !seen.insert(c) {
                continue;
            }
            let m = self.classes[c].module;
            for b in &self.classes[c].bases {
                if self.canonical(m, b).is_some_and(|q| tf::is_model_base(&q)) {
                    return true;
                }
            }
            todo.extend(self.base_classes(c));
        }
        false
    }
}
