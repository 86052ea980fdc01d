//! What code the analysis does not run may change: values handed to it *escape*.
//!
//! **Trigger:** a value passed to a library function, a callback registry or any call the
//! analysis does not follow.
//!
//! **Effect:** lists passed become unknown, objects lose their data attributes, and what a
//! passed function or class can reach (its closure, the module globals it names, the classes
//! whose methods it runs) escapes with it, up to [`ESCAPE_DEPTH`] steps away. One escape
//! handles each object, function and class once.
//!
//! **Why:** certain means certain: `fig.canvas.mpl_connect("button_press_event", on_click)`
//! where `on_click` appends to a list means the list's length is no longer known.
//!
//! ```python
//! frames = []
//! def save(t): frames.append(t)
//! driver.run(observer=save)   # `frames` escapes: its length is unknown afterwards
//! ```
use super::Interp;
use super::call::Args;
use super::state::{Obj, State};
use super::value::{Int, Seq, Value};

/// How far `escape_value` follows what a value reaches (a callback → the class it instantiates
/// → that class's method → the list the method fills).
const ESCAPE_DEPTH: u32 = 4;

/// What one escape has already made unknown (see [`Interp::escape_reach`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Reached {
    Obj(super::value::Addr),
    Func(u32),
    Class(u32),
}

impl Interp<'_> {
    /// Arguments handed to code the analysis does not run (a library function, a callback
    /// registry) may be changed by it, now or later: lists passed, and the lists and objects
    /// a passed function can reach (`fig.canvas.mpl_connect("button_press_event", on_click)`
    /// where `on_click` appends to a list of the enclosing function, or to a module global),
    /// become unknown.
    pub(super) fn escape(&mut self, args: &Args, st: &mut State) {
        let vals: Vec<Value> = args
            .pos
            .iter()
            .chain(args.kw.iter().map(|(_, v)| v))
            .cloned()
            .collect();
        for v in &vals {
            self.escape_value(v, st);
        }
    }

    pub(crate) fn escape_value(&mut self, v: &Value, st: &mut State) {
        self.escape_reach(v, st, 0, &mut super::state::FxMap::default());
    }

    /// [`Self::escape_value`] at `depth`; `seen` holds what this escape already handled and
    /// at which depth: one value reached again no deeper has nothing more to give (a class's
    /// methods naming one another, a helper every method calls), and walking it again made
    /// escapes cost the product of the paths to each function.
    fn escape_reach(
        &mut self,
        v: &Value,
        st: &mut State,
        depth: u32,
        seen: &mut super::state::FxMap<Reached, u32>,
    ) {
        if depth > ESCAPE_DEPTH {
            return;
        }
        let key = match v {
            Value::List(a) | Value::Instance(a) | Value::Dict(a) => Some(Reached::Obj(*a)),
            Value::Func(id) => Some(Reached::Func(*id)),
            Value::Class(c) => Some(Reached::Class(*c)),
            _ => None,
        };
        if let Some(key) = key {
            match seen.get(&key) {
                Some(&d) if d <= depth => return,
                _ => {
                    seen.insert(key, depth);
                }
            }
        }
        match v {
            Value::List(addr) => {
                // Its elements go with it: objects in it may be changed through it.
                let elems: Vec<Value> = match st.list(*addr) {
                    Some(Seq::Exact(items)) => items.to_vec(),
                    Some(Seq::Summary(e, _)) => vec![*e],
                    None => Vec::new(),
                };
                if let Some(Obj::List(seq)) = st.obj_mut(*addr) {
                    *seq = Seq::Summary(Box::new(Value::Top), Int::Range(Some(0), None));
                }
                for e in &elems {
                    if matches!(
                        e,
                        Value::Instance(_) | Value::List(_) | Value::Func(_) | Value::Method(..)
                    ) {
                        self.escape_reach(e, st, depth + 1, seen);
                    }
                }
            }
            Value::Instance(addr) => super::expr::forget_attributes(st, *addr),
            // A parser or namespace handed to a library: its options may be anything now.
            Value::ArgParser(addr) | Value::Namespace(addr) => {
                st.insert_obj(*addr, Obj::unknown_dict());
            }
            Value::Dict(addr) => {
                let values: Vec<Value> = st
                    .dict(*addr)
                    .map(|(items, _)| items.into_iter().map(|(_, v)| v).collect())
                    .unwrap_or_default();
                st.insert_obj(*addr, Obj::unknown_dict());
                for v in &values {
                    if matches!(v, Value::Instance(_) | Value::List(_) | Value::Dict(_)) {
                        self.escape_reach(v, st, depth + 1, seen);
                    }
                }
            }
            Value::Tuple(Seq::Exact(items)) => {
                for x in items.iter() {
                    self.escape_reach(x, st, depth + 1, seen);
                }
            }
            Value::Func(id) => {
                let f = &self.funcs[*id as usize];
                let mut reach: Vec<Value> = f
                    .closure
                    .as_ref()
                    .map(|c| c.values().map(|b| b.value.clone()).collect())
                    .unwrap_or_default();
                // And the module globals it names (`def save(t): frames.append(...)` handed to
                // a driver as an observer fills the module's `frames`). Of another module, the
                // lists and dicts only (a trace list its `read()` appends to): its functions
                // and classes are its library, which the caller's escape need not walk.
                let own = f.module == self.cur_module;
                if let Some(globals) = self.globals_of_module(f.module, st) {
                    for name in f.scope.reads(f.def) {
                        if !f.scope.locals.contains(name)
                            && let Some(b) = globals.get(name)
                            && (own || matches!(b.value, Value::List(_) | Value::Dict(_)))
                        {
                            reach.push(b.value.clone());
                        }
                    }
                }
                // What it reaches through the helpers it calls and the classes whose methods
                // it runs goes too (a framework's hook: `model_fn` builds `RecordLoss(loss)`,
                // whose `after_run` appends to a module-level list).
                for x in &reach {
                    if matches!(
                        x,
                        Value::List(_) | Value::Instance(_) | Value::Func(_) | Value::Class(_)
                    ) && !matches!(x, Value::Func(g) if g == id)
                    {
                        self.escape_reach(x, st, depth + 1, seen);
                    }
                }
            }
            Value::Class(c) => {
                let methods: Vec<Value> = self.classes[*c as usize]
                    .attrs
                    .values()
                    .map(|b| b.value.clone())
                    .filter(|v| matches!(v, Value::Func(_)))
                    .collect();
                for m in &methods {
                    self.escape_reach(m, st, depth + 1, seen);
                }
            }
            Value::Method(recv, _) => self.escape_reach(recv, st, depth + 1, seen),
            // A lambda reaches what its frame held when it was made.
            Value::Lambda(id) => {
                let held: Vec<Value> = self
                    .lambdas
                    .get(*id as usize)
                    .and_then(|l| l.closure.as_ref())
                    .map(|c| c.values().map(|b| b.value.clone()).collect())
                    .unwrap_or_default();
                for x in &held {
                    self.escape_reach(x, st, depth + 1, seen);
                }
            }
            _ => {}
        }
    }

    /// The lists and dicts a module's globals hold escape: code of that module the analysis
    /// did not run to its end (a call cut by its budget, a wrapper not followed) may have
    /// filled or emptied them — a module-level trace `read()` appends to and `get_trace()`
    /// hands back. (Its other objects are left as they are: a module's instances are mostly
    /// constants, units and singletons, and forgetting them all at every such call darkened
    /// whole test files.)
    pub(crate) fn escape_module_containers(&mut self, globals: &super::state::Env, st: &mut State) {
        let held: Vec<Value> = globals
            .values()
            .map(|b| b.value.clone())
            .filter(|v| match v {
                Value::List(a) => {
                    !matches!(st.list(*a), Some(Seq::Summary(e, _)) if matches!(*e, Value::Top))
                }
                Value::Dict(a) => st
                    .dict(*a)
                    .is_some_and(|(items, exact)| exact || !items.is_empty()),
                _ => false,
            })
            .collect();
        for v in &held {
            self.escape_value(v, st);
        }
    }

    /// The globals of `module` as the analysis has them now (the current frame's, a module
    /// that finished running, or one suspended while it calls out).
    pub(crate) fn globals_of_module(
        &self,
        module: u32,
        st: &State,
    ) -> Option<std::sync::Arc<super::state::Env>> {
        if module == self.cur_module {
            return Some(st.globals.clone());
        }
        match &self.modules[module as usize].status {
            super::ModStatus::Done(g) => Some(g.clone()),
            _ => self
                .suspended
                .iter()
                .rev()
                .find(|s| s.0 == module)
                .map(|s| s.1.clone()),
        }
    }
}
