//! Language model: comprehensions — `[f(x) for x in xs]`, `{k: v for ...}`, generators.
//!
//! **Trigger:** a list, set, dict comprehension or generator expression.
//!
//! **Result:** with one `for` over items the analysis knows, the elements one by one, each
//! item's `if`s deciding whether it is kept — exact, when every `if` is decided for every item;
//! otherwise the join of the element over one symbolic pass, of unknown length. A dict
//! comprehension whose keys are then all constants is the dict itself.
//!
//! **Why:** models are built from such lists (`[i for i, b in enumerate(blocks) if b.stride >
//! 1]` picks the stages a feature extractor returns, `{str(k): v for k, v in layers.items()}`
//! names them); unknown, every size read from them was lost.
//!
//! ```python
//! stages = [i for i, c in enumerate([16, 24, 24, 40]) if i == 0 or c > 16]   # [0, 1, 2, 3]
//! names = {str(i): "out" for i in stages[-1:]}                               # {"3": "out"}
//! ```
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;

use super::Interp;
use super::state::State;
use super::value::{Int, Seq, Value};

impl<'a> Interp<'a> {
    /// `{key: value for ...}`.
    pub(super) fn dict_comprehension(&mut self, c: &'a ast::ExprDictComp, st: &mut State) -> Value {
        let mut keys = Vec::new();
        let seq = self.comprehension_keyed(
            &c.generators,
            c.key.as_deref(),
            &c.value,
            Some(&mut keys),
            st,
        );
        // Over known items with constant keys, the dict itself (a later key replaces an
        // earlier one, keeping its place, as Python does).
        match seq {
            Seq::Exact(values)
                if keys.len() == values.len() && keys.iter().all(Value::is_const_key) =>
            {
                let mut items: Vec<(Value, Value)> = Vec::with_capacity(keys.len());
                for (k, v) in keys.into_iter().zip(values.iter().cloned()) {
                    match items.iter_mut().find(|(old, _)| *old == k) {
                        Some(slot) => slot.1 = v,
                        None => items.push((k, v)),
                    }
                }
                self.alloc_dict(items, true, c.range.start(), st)
            }
            _ => Value::Top,
        }
    }

    /// A comprehension's elements: exact when there is one `for` over known items and its
    /// `if`s (if any) decide every item, otherwise the join of the element over one symbolic pass. A dict comprehension's `key`
    /// is evaluated before its value (as Python does: `{(c := f(x)).name: c for x in xs}`).
    pub(super) fn comprehension(
        &mut self,
        gens: &'a [ast::Comprehension],
        key: Option<&'a Expr>,
        elt: &'a Expr,
        st: &mut State,
    ) -> Seq {
        self.comprehension_keyed(gens, key, elt, None, st)
    }

    /// [`Self::comprehension`], keeping a dict comprehension's keys in `keys` when its
    /// elements are exact.
    fn comprehension_keyed(
        &mut self,
        gens: &'a [ast::Comprehension],
        key: Option<&'a Expr>,
        elt: &'a Expr,
        mut keys: Option<&mut Vec<Value>>,
        st: &mut State,
    ) -> Seq {
        let mut inner = st.clone();
        // Comprehension variables live in their own scope: run in a copy whose heap changes
        // are kept.
        let mut result = None;
        if let [g] = gens {
            let it = self.eval(&g.iter, &mut inner);
            match self.iteration_items(&it, &inner) {
                // Over known items, element by element; an `if` that every item decides
                // filters them (`[i for i, b in enumerate(blocks) if b.stride > 1]`).
                Some(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    let salt = self.iter_salt;
                    let mut decided = true;
                    'items: for (i, item) in items.into_iter().enumerate() {
                        self.iter_salt = super::stmt::iteration_salt(salt, elt.range().start(), i);
                        let mut s = inner.clone();
                        self.assign(&g.target, item, &mut s);
                        for cond in &g.ifs {
                            let c = self.eval(cond, &mut s);
                            match self.test_truth(&c, cond.range(), &s) {
                                Some(true) => {}
                                Some(false) => {
                                    inner.heap = s.heap;
                                    continue 'items;
                                }
                                None => {
                                    decided = false;
                                    break 'items;
                                }
                            }
                        }
                        if let Some(k) = key {
                            let k = self.eval(k, &mut s);
                            if let Some(keys) = keys.as_deref_mut() {
                                keys.push(k);
                            }
                        }
                        out.push(self.eval(elt, &mut s));
                        inner.heap = s.heap;
                    }
                    self.iter_salt = salt;
                    if decided {
                        result = Some(Seq::Exact(out.into()));
                    } else {
                        if let Some(keys) = &mut keys {
                            keys.clear();
                        }
                        inner = st.clone();
                    }
                }
                None if g.ifs.is_empty() => {
                    let elem = self.iteration_element(&it, &inner);
                    let len = self.iteration_len(&it, &inner);
                    self.assign(&g.target, elem, &mut inner);
                    // Over an iterable that may be empty, the element may never be computed:
                    // an error in it does not stop the statement (see `raised`).
                    let maybe_empty = u32::from(
                        !matches!(len, Int::Const(n) if n > 0)
                            && !matches!(len, Int::Range(Some(lo), _) if lo > 0),
                    );
                    self.cond_expr += maybe_empty;
                    if let Some(k) = key {
                        self.eval(k, &mut inner);
                    }
                    let v = self.eval(elt, &mut inner);
                    self.cond_expr -= maybe_empty;
                    result = Some(Seq::Summary(Box::new(v), len));
                }
                None => inner = st.clone(),
            }
        }
        let result = match result {
            Some(r) => r,
            None => {
                self.cond_expr += 1;
                for g in gens {
                    let it = self.eval(&g.iter, &mut inner);
                    let elem = self.iteration_element(&it, &inner);
                    self.assign(&g.target, elem, &mut inner);
                    for cond in &g.ifs {
                        self.eval(cond, &mut inner);
                    }
                }
                if let Some(k) = key {
                    self.eval(k, &mut inner);
                }
                let v = self.eval(elt, &mut inner);
                self.cond_expr -= 1;
                Seq::Summary(Box::new(v), Int::Range(Some(0), None))
            }
        };
        st.heap = inner.heap;
        result
    }
}
