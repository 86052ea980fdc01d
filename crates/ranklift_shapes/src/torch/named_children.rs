//! Library model: `module.named_children()` / `module.children()` on a program's module.
//!
//! **Trigger:** either method on an object of a program's `nn.Module` subclass that does not
//! define it, or on an `nn.Sequential`/`nn.ModuleList`/`nn.ModuleDict`.
//!
//! **Result:** the list torch returns — `(name, module)` pairs, or the modules — in the order
//! the modules were assigned: for a subclass of `nn.Sequential`/`nn.ModuleDict`/`nn.ModuleList`,
//! the modules it holds; otherwise the object's attributes that hold modules (layers, objects
//! of `nn.Module` subclasses), ordered as `__init__` assigns them — read from its source, with
//! the constructors it calls through `super().__init__(...)` and the methods it calls on `self`
//! at the point of the call. Unknown when that order is not certain: an attribute bound through
//! `setattr`/`add_module`, a module attribute the source does not assign, an attribute whose
//! value is unknown (it may be a module) or bound on one path only, two branches of an `if`
//! assigning the same attributes in different orders.
//!
//! **Why:** feature extractors rebuild a backbone from its children (torchvision's
//! `IntermediateLayerGetter`: `for name, module in model.named_children(): layers[name] =
//! module`, then a `ModuleDict` of them run in order). Unknown, every segmentation model built on
//! one — its features, heads and every size after — went dark.
//!
//! ```python
//! class Backbone(nn.Module):
//!     def __init__(self):
//!         super().__init__()
//!         self.stem = nn.Conv2d(3, 8, 3)
//!         self.layer1 = nn.Conv2d(8, 16, 3)
//!
//! layers = OrderedDict(Backbone().named_children())   # stem, then layer1
//! nn.Sequential(layers)(torch.zeros(1, 3, 9, 9))      # (1, 16, 5, 5)
//! nn.Sequential(OrderedDict(reversed(layers.items())))(torch.zeros(1, 3, 9, 9))
//! # W521: expected input[1, 3, 9, 9] to have 8 channels
//! ```
use std::sync::Arc;

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};
use ruff_text_size::TextRange;

use crate::interp::Interp;
use crate::interp::state::{Obj, State};
use crate::interp::value::{Seq, Value};

/// The method kinds of `named_children` / `children` on such an object.
pub const NAMED: &str = "<named_children>";
pub const PLAIN: &str = "<children>";

/// How deep the constructors and helper methods are followed.
const DEPTH: usize = 6;

impl Interp<'_> {
    /// `obj.named_children` / `obj.children` (a method the class does not define).
    pub(crate) fn children_method(&self, obj: &Value, attr: &str) -> Option<Value> {
        let kind = match attr {
            "named_children" => NAMED,
            "children" => PLAIN,
            _ => return None,
        };
        Some(Value::Method(Box::new(obj.clone()), kind.into()))
    }

    /// The call: the list, or unknown.
    pub(crate) fn call_children(
        &mut self,
        recv: &Value,
        named: bool,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let Some(pairs) = self.children_of(recv, st) else {
            return Value::Top;
        };
        let items = pairs
            .into_iter()
            .map(|(name, m)| {
                if named {
                    Value::Tuple(Seq::Exact(vec![Value::Str(Some(name)), m].into()))
                } else {
                    m
                }
            })
            .collect::<Vec<_>>();
        self.alloc_list(Seq::Exact(items.into()), range.start(), st)
    }

    fn children_of(&self, recv: &Value, st: &State) -> Option<Vec<(Arc<str>, Value)>> {
        if let Value::Layer(_) = recv {
            return held(recv, st);
        }
        if let Some(layer) = self.stored_layer(recv, st) {
            return held(&Value::Layer(layer), st);
        }
        let Value::Instance(addr) = recv else {
            return None;
        };
        let Some(Obj::Instance { class, attrs }) = st.heap.get(addr).map(|o| &**o) else {
            return None;
        };
        let order = self.assignment_order(*class)?;
        let mut out = Vec::new();
        for name in &order {
            let Some(b) = attrs.get(name) else {
                continue;
            };
            if b.maybe_unbound {
                return None;
            }
            match self.is_module(&b.value, st) {
                Some(true) => out.push((name.clone(), b.value.clone())),
                Some(false) => {}
                None => return None,
            }
        }
        // A module held under a name the source does not assign (bound by `add_module`, or
        // through a helper not followed): its place in the order is unknown.
        for (name, b) in attrs {
            if name.starts_with('<') {
                if name.as_ref() == "<opaque>" {
                    return None;
                }
                continue;
            }
            if !order.contains(name) && self.is_module(&b.value, st) != Some(false) {
                return None;
            }
        }
        Some(out)
    }

    /// Is `v` a module? `None`: it may be.
    fn is_module(&self, v: &Value, st: &State) -> Option<bool> {
        match v {
            Value::Layer(_) => Some(true),
            Value::Instance(a) => Some(
                self.instance_class(st, *a)
                    .is_some_and(|c| self.is_torch_module(c, 0)),
            ),
            Value::Top => None,
            _ => Some(false),
        }
    }

    /// The attribute names `class`'s `__init__` assigns on `self`, in source order (see the
    /// module's doc); `None` when an attribute is bound by name at run time.
    fn assignment_order(&self, class: u32) -> Option<Vec<Arc<str>>> {
        let mut walk = Walk {
            interp: self,
            class,
            out: Vec::new(),
            dynamic: false,
            depth: 0,
            self_name: String::new(),
            defining: Vec::new(),
        };
        if let Some(Value::Func(id)) = self.class_attr(class, "__init__", 0) {
            walk.function(id);
        }
        (!walk.dynamic).then_some(walk.out)
    }
}

/// The modules a torch container holds, named as torch names them.
fn held(layer: &Value, st: &State) -> Option<Vec<(Arc<str>, Value)>> {
    use crate::torch::layers::Layer;
    let Value::Layer(l) = layer else {
        return None;
    };
    match &**l {
        Layer::Sequential(children, names) => Some(
            names
                .iter()
                .cloned()
                .zip(children.iter().cloned())
                .collect(),
        ),
        _ => match layer.held_modules()? {
            Value::Dict(a) => match st.heap.get(&a).map(|o| &**o) {
                Some(Obj::Dict { items, exact: true }) => items
                    .iter()
                    .map(|(k, v)| match k {
                        Value::Str(Some(k)) => Some((k.clone(), v.clone())),
                        _ => None,
                    })
                    .collect(),
                _ => None,
            },
            Value::List(a) => match st.heap.get(&a).map(|o| &**o) {
                Some(Obj::List(Seq::Exact(items))) => Some(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (Arc::from(i.to_string()), v.clone()))
                        .collect(),
                ),
                _ => None,
            },
            _ => None,
        },
    }
}

struct Walk<'i, 'a> {
    interp: &'i Interp<'a>,
    /// The object's class (methods called on `self` are looked up from it).
    class: u32,
    out: Vec<Arc<str>>,
    dynamic: bool,
    depth: usize,
    self_name: String,
    /// The classes defining the functions being walked, innermost last (for `super()`).
    defining: Vec<Option<u32>>,
}

impl Walk<'_, '_> {
    /// Walk the body of function `id` (a constructor or a method run on the same object).
    fn function(&mut self, id: u32) {
        if self.depth >= DEPTH || self.dynamic {
            return;
        }
        let (def, class): (&StmtFunctionDef, _) = self.interp.func_def(id);
        let Some(first) = def
            .parameters
            .posonlyargs
            .iter()
            .chain(&def.parameters.args)
            .next()
        else {
            return;
        };
        let saved = std::mem::replace(&mut self.self_name, first.parameter.name.to_string());
        self.depth += 1;
        self.defining.push(class);
        for s in &def.body {
            self.visit_stmt(s);
        }
        self.defining.pop();
        self.depth -= 1;
        self.self_name = saved;
    }

    fn is_self(&self, e: &Expr) -> bool {
        matches!(e, Expr::Name(n) if n.id.as_str() == self.self_name)
    }

    fn target(&mut self, t: &Expr) {
        match t {
            Expr::Attribute(a) if self.is_self(&a.value) => {
                let name: Arc<str> = a.attr.as_str().into();
                if !self.out.contains(&name) {
                    self.out.push(name);
                }
            }
            Expr::Tuple(t) => t.elts.iter().for_each(|e| self.target(e)),
            Expr::List(l) => l.elts.iter().for_each(|e| self.target(e)),
            Expr::Starred(s) => self.target(&s.value),
            _ => {}
        }
    }

    /// The constructor a `super().__init__(...)` in a method of `defining` reaches.
    fn parent_init(&self, defining: u32) -> Option<u32> {
        self.interp
            .class_bases(defining)
            .iter()
            .find_map(|b| match b {
                Value::Class(b) => match self.interp.class_attr(*b, "__init__", 0) {
                    Some(Value::Func(id)) => Some(id),
                    _ => None,
                },
                _ => None,
            })
    }
}

impl<'e> Visitor<'e> for Walk<'_, '_> {
    fn visit_stmt(&mut self, s: &'e Stmt) {
        match s {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
            Stmt::Assign(a) => {
                self.visit_expr(&a.value);
                a.targets.iter().for_each(|t| self.target(t));
            }
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    self.visit_expr(v);
                    self.target(&a.target);
                }
            }
            // Each branch in turn from the same order; names that two branches both assign
            // must come in the same order in each (else the order depends on the path taken).
            Stmt::If(i) => {
                self.visit_expr(&i.test);
                let before = self.out.clone();
                let mut branches = Vec::new();
                for (test, body) in std::iter::once((None, &i.body)).chain(
                    i.elif_else_clauses
                        .iter()
                        .map(|c| (c.test.as_ref(), &c.body)),
                ) {
                    if let Some(t) = test {
                        self.visit_expr(t);
                    }
                    self.out.clone_from(&before);
                    body.iter().for_each(|s| self.visit_stmt(s));
                    branches.push(self.out.split_off(before.len()));
                }
                if !branches
                    .iter()
                    .all(|a| branches.iter().all(|b| same_relative_order(a, b)))
                {
                    self.dynamic = true;
                }
                self.out = before;
                for n in branches.into_iter().flatten() {
                    if !self.out.contains(&n) {
                        self.out.push(n);
                    }
                }
            }
            _ => visitor::walk_stmt(self, s),
        }
    }

    fn visit_expr(&mut self, e: &'e Expr) {
        if let Expr::Lambda(_) = e {
            return;
        }
        if let Expr::Call(c) = e {
            match &*c.func {
                Expr::Name(n)
                    if n.id.as_str() == "setattr"
                        && c.arguments.args.first().is_some_and(|a| self.is_self(a)) =>
                {
                    self.dynamic = true;
                }
                Expr::Attribute(a)
                    if self.is_self(&a.value)
                        && matches!(a.attr.as_str(), "add_module" | "register_module") =>
                {
                    self.dynamic = true;
                }
                // `super().__init__(...)`: the parent's constructor assigns here.
                Expr::Attribute(a)
                    if a.attr.as_str() == "__init__"
                        && matches!(&*a.value, Expr::Call(s)
                            if matches!(&*s.func, Expr::Name(n) if n.id.as_str() == "super")) =>
                {
                    visitor::walk_expr(self, e);
                    let defining = self.defining.last().copied().flatten();
                    if let Some(id) = defining.and_then(|d| self.parent_init(d)) {
                        self.function(id);
                    }
                    return;
                }
                // `self.make_layers()`: the method assigns here.
                Expr::Attribute(a) if self.is_self(&a.value) => {
                    visitor::walk_expr(self, e);
                    if let Some(Value::Func(id)) =
                        self.interp.class_attr(self.class, a.attr.as_str(), 0)
                    {
                        self.function(id);
                    }
                    return;
                }
                _ => {}
            }
        }
        visitor::walk_expr(self, e);
    }
}

/// Do the names `a` and `b` share come in the same order in both?
fn same_relative_order(a: &[Arc<str>], b: &[Arc<str>]) -> bool {
    let common_a = a.iter().filter(|n| b.contains(n));
    let common_b = b.iter().filter(|n| a.contains(n));
    common_a.eq(common_b)
}
