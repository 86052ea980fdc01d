//! Statements.

use std::sync::Arc;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use super::state::{Binding, Obj, State};
use super::value::{Addr, Int, ModRef, Seq, Value};
use super::{Catch, Interp, JOIN_PASSES, MAX_NESTED_UNROLL, MAX_UNROLL};

mod defs;

/// Where control goes after a block: on to the next statement, or out by `break`, `continue`,
/// `return` or an exception. Each is the join of every state that leaves that way.
#[derive(Default)]
pub(crate) struct Out {
    pub normal: Option<State>,
    pub breaks: Option<State>,
    pub continues: Option<State>,
    pub returns: Option<(State, Value)>,
    pub raises: Option<State>,
    /// The normal exit is reached only on paths where an undecided condition went one way (an
    /// `if` under such a condition returned or raised): the rest of the block runs under it.
    pub guarded: bool,
}

pub(crate) fn join_opt(a: Option<State>, b: Option<State>) -> Option<State> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.join(&b)),
        (a, b) => a.or(b),
    }
}

impl Out {
    fn normal(st: State) -> Out {
        Out {
            normal: Some(st),
            ..Out::default()
        }
    }

    /// Take over the abrupt exits of `other` (not its normal exit).
    fn absorb(&mut self, other: &mut Out) {
        self.breaks = join_opt(self.breaks.take(), other.breaks.take());
        self.continues = join_opt(self.continues.take(), other.continues.take());
        self.raises = join_opt(self.raises.take(), other.raises.take());
        self.returns = match (self.returns.take(), other.returns.take()) {
            (Some((s1, v1)), Some((s2, v2))) => Some((s1.join(&s2), v1.join(&v2))),
            (a, b) => a.or(b),
        };
    }
}

/// How a `for` loop iterates: over known items one by one, or over a summary element.
pub(crate) enum Iteration {
    Items(Vec<Value>),
    Summary(Value),
}

impl<'a> Interp<'a> {
    pub(crate) fn exec_block(&mut self, body: &'a [Stmt], st: State) -> Out {
        let mut out = Out::default();
        let mut cur = Some(st);
        let mut guards = 0;
        for s in body {
            let Some(state) = cur.take() else { break };
            if !self.tick() {
                cur = Some(state);
                break;
            }
            let saved = std::mem::take(&mut self.raised);
            // Coverage: a statement's causes are its own, but a `return`'s reach the call.
            let outer = self.coverage.origin.take();
            let mut r = self.exec_stmt(s, state);
            let inner = self.coverage.origin.take();
            self.coverage.origin = match s {
                Stmt::Return(_) => outer.or(inner),
                _ => outer,
            };
            // A certain error raised by this statement (its own expressions, not a nested
            // block's statements): the rest of the block does not run on this path.
            if std::mem::replace(&mut self.raised, saved) {
                let returned = r.returns.take().map(|(s, _)| s);
                let exits = join_opt(r.normal.take(), returned);
                r.raises = join_opt(r.raises.take(), exits);
            }
            cur = r.normal.take();
            out.absorb(&mut r);
            if r.guarded {
                guards += 1;
                self.after_guard += 1;
            }
        }
        self.after_guard -= guards;
        out.normal = cur;
        out
    }

    fn exec_stmt(&mut self, stmt: &'a Stmt, mut st: State) -> Out {
        match stmt {
            Stmt::Expr(e) => {
                self.eval(&e.value, &mut st);
                Out::normal(st)
            }
            Stmt::Assign(a) => {
                // The value's own origin (coverage), not an earlier statement's.
                let outer = self.coverage.origin.take();
                let v = self.eval(&a.value, &mut st);
                for t in &a.targets {
                    if let (Value::Array(shape), Expr::Name(_) | Expr::Attribute(_)) = (&v, t) {
                        self.record_origin(t.range(), a.range, shape);
                    }
                    self.assign(t, v.clone(), &mut st);
                }
                self.coverage.origin = outer;
                Out::normal(st)
            }
            Stmt::AugAssign(a) => {
                self.aug_assign(a, &mut st);
                Out::normal(st)
            }
            Stmt::AnnAssign(a) => {
                if let Some(value) = &a.value {
                    let v = self.eval(value, &mut st);
                    let v = self.apply_hint(&a.annotation, v, a.range(), &mut st);
                    self.assign(&a.target, v, &mut st);
                }
                Out::normal(st)
            }
            Stmt::If(i) => self.exec_if(i, st),
            Stmt::While(w) => self.exec_while(w, st),
            Stmt::For(f) => self.exec_for(f, st),
            Stmt::With(w) => {
                for item in &w.items {
                    let v = self.eval(&item.context_expr, &mut st);
                    if let Some(t) = &item.optional_vars {
                        // `with np.errstate(...) as e`, `with open(...) as f`: the value of
                        // `__enter__` is unknown, except for arrays used as context (never).
                        let _ = v;
                        self.assign(t, Value::Top, &mut st);
                    }
                }
                let Some(catch) = w.items.iter().find_map(|i| expects_error(&i.context_expr))
                else {
                    return self.exec_block(&w.body, st);
                };
                // `with pytest.raises(ValueError):` expects its block to fail: a test feeding
                // bad input on purpose, where the error (the library's own check, or NumPy's
                // where the check is one the analysis cannot decide) is no finding; the code
                // after the block runs.
                self.catches.push(catch);
                let mut out = self.exec_block(&w.body, st);
                self.catches.pop();
                out.normal = join_opt(out.normal.take(), out.raises.take());
                out
            }
            Stmt::FunctionDef(f) => {
                let v = self.define_function(f, &mut st);
                self.bind(f.name.as_str(), v, &mut st);
                Out::normal(st)
            }
            Stmt::ClassDef(c) => self.define_class(c, st),
            Stmt::Return(r) => {
                let v = match &r.value {
                    Some(e) => self.eval(e, &mut st),
                    None => Value::None,
                };
                Out {
                    returns: Some((st, v)),
                    ..Out::default()
                }
            }
            Stmt::Delete(d) => {
                for t in &d.targets {
                    self.delete(t, &mut st);
                }
                Out::normal(st)
            }
            Stmt::Raise(r) => {
                if let Some(e) = &r.exc {
                    self.eval(e, &mut st);
                }
                Out {
                    raises: Some(st),
                    ..Out::default()
                }
            }
            Stmt::Try(t) => self.exec_try(t, st),
            Stmt::Assert(a) => {
                let c = self.eval(&a.test, &mut st);
                match self.test_truth(&c, a.test.range(), &st) {
                    Some(false) => Out {
                        raises: Some(st),
                        ..Out::default()
                    },
                    Some(true) => Out::normal(st),
                    // Past an undecided `assert isinstance(x, T)`, `x` may be what it tests.
                    None => {
                        self.forget_tested(&a.test, &mut st);
                        Out::normal(st)
                    }
                }
            }
            Stmt::Import(i) => {
                for alias in &i.names {
                    self.exec_import(alias, &mut st);
                }
                Out::normal(st)
            }
            Stmt::ImportFrom(i) => {
                self.exec_import_from(i, &mut st);
                Out::normal(st)
            }
            Stmt::Break(_) => Out {
                breaks: Some(st),
                ..Out::default()
            },
            Stmt::Continue(_) => Out {
                continues: Some(st),
                ..Out::default()
            },
            Stmt::Match(m) => {
                self.eval(&m.subject, &mut st);
                let mut out = Out::default();
                // No case may match (unless one is irrefutable).
                let mut normal = Some(st.clone());
                for case in &m.cases {
                    let mut s = st.clone();
                    let mut names = Vec::new();
                    super::scope::pattern_names(&case.pattern, &mut names);
                    for n in names {
                        self.bind(&n, Value::Top, &mut s);
                    }
                    if let Some(g) = &case.guard {
                        self.eval(g, &mut s);
                    }
                    if case.pattern.is_irrefutable() && case.guard.is_none() {
                        normal = None;
                    }
                    let mut r = self.exec_block(&case.body, s);
                    normal = join_opt(normal, r.normal.take());
                    out.absorb(&mut r);
                }
                out.normal = normal;
                out
            }
            Stmt::Global(_)
            | Stmt::Nonlocal(_)
            | Stmt::Pass(_)
            | Stmt::TypeAlias(_)
            | Stmt::IpyEscapeCommand(_) => Out::normal(st),
        }
    }

    fn exec_if(&mut self, i: &'a ast::StmtIf, mut st: State) -> Out {
        // The chain `if / elif / else` as a list of (condition, body).
        let mut arms: Vec<(Option<&'a Expr>, &'a [Stmt])> = vec![(Some(&i.test), &i.body)];
        for c in &i.elif_else_clauses {
            arms.push((c.test.as_ref(), &c.body));
        }
        let mut out = Out::default();
        let mut rest = Some(st.clone());
        let mut normal: Option<State> = None;
        // Once a condition is undecided, every later arm may or may not run.
        let mut undecided = false;
        // An arm that may run and never falls through (`if isinstance(t, tuple): return ...`).
        let mut exits = false;
        for (test, body) in arms {
            let Some(mut s) = rest.take() else { break };
            let truth = match test {
                Some(t) => {
                    let c = self.eval(t, &mut s);
                    self.test_truth(&c, t.range(), &s)
                }
                None => Some(true),
            };
            // The condition raised for certain (`if a > 0:` on an array): no arm runs.
            if self.raised && self.cond_expr == 0 {
                out.raises = join_opt(out.raises.take(), Some(s));
                break;
            }
            match truth {
                Some(true) => {
                    self.undecided += u32::from(undecided);
                    let mut r = self.exec_block(body, s);
                    self.undecided -= u32::from(undecided);
                    normal = join_opt(normal, r.normal.take());
                    out.absorb(&mut r);
                }
                Some(false) => rest = Some(s),
                None => {
                    undecided = true;
                    if let Some(t) = test {
                        self.forget_tested(t, &mut s);
                    }
                    self.undecided += 1;
                    let mut r = self.exec_block(body, s.clone());
                    self.undecided -= 1;
                    // An arm that only raises (`if not ok: raise ValueError(...)`) validates: the
                    // rest runs on the valid inputs, which is no dispatch the analysis misses.
                    // One that returns, breaks or continues does dispatch (`if isinstance(t,
                    // tuple): return ...`).
                    exits |= r.normal.is_none()
                        && (r.returns.is_some() || r.breaks.is_some() || r.continues.is_some());
                    normal = join_opt(normal, r.normal.take());
                    out.absorb(&mut r);
                    rest = Some(s);
                }
            }
        }
        // No arm taken (no `else`).
        normal = join_opt(normal, rest);
        st = match normal {
            Some(s) => s,
            None => {
                out.normal = None;
                return out;
            }
        };
        out.normal = Some(st);
        out.guarded = exits;
        out
    }

    /// One pass of a loop body from `s`: `break`s join into `breaks`, returns and raises into
    /// `out`; the result is the state that goes back to the loop head (end of body or
    /// `continue`), if any.
    fn loop_pass(
        &mut self,
        body: &'a [Stmt],
        s: State,
        breaks: &mut Option<State>,
        out: &mut Out,
    ) -> Option<State> {
        let mut r = self.exec_block(body, s);
        *breaks = join_opt(breaks.take(), r.breaks.take());
        let back = join_opt(r.normal.take(), r.continues.take());
        out.absorb(&mut r);
        back
    }

    /// The loop head after one more pass: joined for the first [`JOIN_PASSES`] passes, widened
    /// after; `None` once it is stable (or the fuel or the pass backstop ran out).
    fn next_head(&self, head: &State, back: &State, passes: &mut usize) -> Option<State> {
        let new_head = if *passes < JOIN_PASSES {
            head.join(back)
        } else {
            head.widen(back)
        };
        *passes += 1;
        (new_head != *head && !self.out_of_fuel && *passes <= 64).then_some(new_head)
    }

    /// After a loop: the `else` clause runs from the state that left through the condition
    /// (or by exhaustion), and the `break`s join what follows.
    fn finish_loop(
        &mut self,
        orelse: &'a [Stmt],
        exit: Option<State>,
        breaks: Option<State>,
        mut out: Out,
    ) -> Out {
        let mut r = match exit {
            Some(s) => self.exec_block(orelse, s),
            None => Out::default(),
        };
        let normal = join_opt(r.normal.take(), breaks);
        // This loop's own breaks and continues end here; those of its `else:` clause belong to
        // the enclosing loop and are kept.
        out.breaks = None;
        out.continues = None;
        out.absorb(&mut r);
        out.normal = normal;
        out
    }

    fn exec_while(&mut self, w: &'a ast::StmtWhile, st: State) -> Out {
        let mut out = Out::default();
        let mut breaks: Option<State> = None;
        let mut head = st;
        let mut unrolled = 0i64;
        let mut heads = super::loop_cycle::Heads::new(&head);
        let limit = self.while_unroll_limit();
        // Exact unrolling while the condition is known.
        let exit: Option<State> = loop {
            let mut s = head.clone();
            let c = self.eval(&w.test, &mut s);
            match self.test_truth(&c, w.test.range(), &s) {
                Some(false) => break Some(s),
                Some(true) if unrolled < limit && !self.out_of_fuel => {
                    match self.loop_pass(&w.body, s, &mut breaks, &mut out) {
                        // A head met before: the passes from it would repeat.
                        Some(n) if heads.repeats(&n) => break None,
                        Some(n) => head = n,
                        None => break None,
                    }
                    unrolled += 1;
                }
                _ => {
                    // Fixpoint with widening. Only the pass from the stable head reports: an
                    // earlier pass starts from a state that later iterations generalise (a
                    // variable unbound before the first iteration is bound in the others).
                    let mut passes = 0;
                    let mut exit = None;
                    let saved = self.findings.clone();
                    loop {
                        self.findings.clone_from(&saved);
                        let mut s = head.clone();
                        let c = self.eval(&w.test, &mut s);
                        let truth = self.test_truth(&c, w.test.range(), &s);
                        if truth != Some(true) {
                            exit = join_opt(exit, Some(s.clone()));
                        }
                        if truth == Some(false) {
                            break;
                        }
                        let Some(back) = self.loop_pass(&w.body, s, &mut breaks, &mut out) else {
                            break;
                        };
                        match self.next_head(&head, &back, &mut passes) {
                            Some(h) => head = h,
                            None => break,
                        }
                    }
                    break exit;
                }
            }
        };
        self.finish_loop(&w.orelse, exit, breaks, out)
    }

    pub(crate) fn iteration(&mut self, v: &Value, st: &State) -> Iteration {
        if let Some(l) = v.held_modules() {
            return self.iteration(&l, st);
        }
        // An object of a program's subclass of a torch container iterates as the container
        // (`for mod in self:` in a `nn.Sequential` subclass's `forward`).
        if let Some(l) = self.container_of(v, st) {
            return self.iteration(&l, st);
        }
        if let Some(t) = self.named_tuple_items(v, st) {
            return self.iteration(&t, st);
        }
        // A loader yields batches; a dataset, samples (`torch/data.rs`).
        if let Value::Layer(l) = v {
            use crate::torch::layers::Layer;
            return match &**l {
                // Every batch of a small loader, in order: the full ones, then the last.
                Layer::Loader {
                    batch,
                    batches: Some((count, last)),
                } if *count as i64 <= MAX_UNROLL => {
                    let mut items = vec![batch.clone(); (*count as usize).saturating_sub(1)];
                    if *count > 0 {
                        items.push(last.clone());
                    }
                    Iteration::Items(items)
                }
                Layer::Loader { batch, .. } => Iteration::Summary(batch.clone()),
                Layer::Dataset { item, .. } => Iteration::Summary(item.clone()),
                // An `nn.Sequential` yields its children, in order.
                Layer::Sequential(children, _) if children.len() as i64 <= MAX_UNROLL => {
                    Iteration::Items(children.to_vec())
                }
                _ => Iteration::Summary(Value::Top),
            };
        }
        // A dict iterates over its keys.
        if let Value::Dict(a) = v {
            return match st.dict(*a) {
                Some((items, true)) if items.len() as i64 <= MAX_UNROLL => {
                    Iteration::Items(items.into_iter().map(|(k, _)| k).collect())
                }
                _ => Iteration::Summary(Value::Top),
            };
        }
        let room = MAX_NESTED_UNROLL / self.unrolled.max(1);
        let small = |n: usize| n as i64 <= MAX_UNROLL && n as i64 <= room;
        match v {
            Value::Range(r) => match (r.0.constant(), r.1.constant(), r.2.constant()) {
                (Some(a), Some(b), Some(c)) if c != 0 => {
                    let n = range_len(a, b, c);
                    if small(n as usize) {
                        Iteration::Items((0..n).map(|i| Value::int(a + i * c)).collect())
                    } else {
                        Iteration::Summary(Value::Int(Int::Range(Some(a.min(b)), Some(a.max(b)))))
                    }
                }
                _ => {
                    let lo = r.0.constant();
                    let lo = if r.2.constant().is_some_and(|c| c > 0) {
                        lo
                    } else {
                        None
                    };
                    Iteration::Summary(Value::Int(Int::Range(lo, None)))
                }
            },
            Value::Tuple(Seq::Exact(items)) if small(items.len()) => {
                Iteration::Items(items.to_vec())
            }
            Value::Tuple(s) => Iteration::Summary(s.element()),
            Value::List(a) => match st.list(*a) {
                Some(Seq::Exact(items)) if small(items.len()) => Iteration::Items(items.to_vec()),
                Some(s) => Iteration::Summary(s.element()),
                None => Iteration::Summary(Value::Top),
            },
            // Rows of an array; the elements of a 1-d array are scalars of its (untracked)
            // dtype: numbers, records, or any object (an array of matplotlib axes).
            Value::Array(s) => Iteration::Summary(match s.dims() {
                Some(d) if d.len() > 1 => Value::Array(crate::Shape::Known(d[1..].to_vec())),
                _ => Value::Top,
            }),
            // Rows of a tensor (0-d tensors for a 1-d one).
            Value::Tensor(s) => Iteration::Summary(match s.dims() {
                Some(d) if !d.is_empty() => Value::Tensor(crate::Shape::Known(d[1..].to_vec())),
                _ => Value::Top,
            }),
            Value::Str(_) => Iteration::Summary(Value::Str(None)),
            _ => Iteration::Summary(Value::Top),
        }
    }

    fn exec_for(&mut self, f: &'a ast::StmtFor, mut st: State) -> Out {
        let it = self.eval(&f.iter, &mut st);
        let mut out = Out::default();
        // The iterable raised for certain (`for x in undefined_loader:`): the body never runs.
        if self.raised && self.cond_expr == 0 {
            out.normal = Some(st);
            return out;
        }
        let mut breaks: Option<State> = None;
        let exit = match self.iteration(&it, &st) {
            Iteration::Items(items) => {
                let mut cur = Some(st);
                let outer = self.unrolled;
                self.unrolled = outer.saturating_mul(items.len().max(1) as i64);
                let salt = self.iter_salt;
                // Once a pass may have left by `break` (under a condition the analysis could
                // not decide), the later passes run only where it did not: past a guard.
                let mut guard = 0;
                for (i, item) in items.into_iter().enumerate() {
                    let Some(mut s) = cur.take() else { break };
                    if self.out_of_fuel {
                        cur = Some(s);
                        break;
                    }
                    if guard == 0 && breaks.is_some() {
                        guard = 1;
                        self.after_guard += 1;
                    }
                    self.iter_salt = iteration_salt(salt, f.range.start(), i);
                    self.assign(&f.target, item, &mut s);
                    cur = self.loop_pass(&f.body, s, &mut breaks, &mut out);
                }
                self.after_guard -= guard;
                self.iter_salt = salt;
                self.unrolled = outer;
                cur
            }
            Iteration::Summary(elem) => {
                // At least one element: the loop cannot end without running its body once.
                let len = self.iteration_len(&it, &st);
                let nonempty = matches!(len, Int::Const(n) if n > 0)
                    || matches!(len, Int::Range(Some(lo), _) if lo > 0);
                let mut head = st;
                let mut passes = 0;
                let mut completed = false;
                // The first pass on the first element (`interp/loop_peel.rs`).
                if let Some(first) = self.peeled_first(&it, &head) {
                    let salt = self.iter_salt;
                    self.iter_salt = iteration_salt(salt, f.range.start(), 0);
                    let mut s = head.clone();
                    self.assign(&f.target, first, &mut s);
                    let back = self.loop_pass(&f.body, s, &mut breaks, &mut out);
                    self.iter_salt = salt;
                    match back {
                        Some(back) => head = back,
                        // The first pass never gets back to the head: nothing runs after it.
                        None => return self.finish_loop(&f.orelse, None, breaks, out),
                    }
                }
                // Only the pass from the stable head reports (see `exec_while`).
                let saved = self.findings.clone();
                loop {
                    self.findings.clone_from(&saved);
                    let mut s = head.clone();
                    self.assign(&f.target, elem.clone(), &mut s);
                    let Some(back) = self.loop_pass(&f.body, s, &mut breaks, &mut out) else {
                        break;
                    };
                    completed = true;
                    match self.next_head(&head, &back, &mut passes) {
                        Some(h) => head = h,
                        None => break,
                    }
                }
                // Every pass raised or returned: with an element to run on, nothing gets past.
                (completed || !nonempty).then_some(head)
            }
        };
        self.finish_loop(&f.orelse, exit, breaks, out)
    }

    fn exec_try(&mut self, t: &'a ast::StmtTry, st: State) -> Out {
        let mut names = Vec::new();
        let mut all = false;
        for h in &t.handlers {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            // A handler that ends by re-raising (`except: print(x); raise`) lets the error out.
            let reraises = matches!(h.body.last(), Some(Stmt::Raise(r))
                if r.exc.as_deref().is_none_or(|e| matches!((e, &h.name),
                    (Expr::Name(n), Some(b)) if n.id.as_str() == b.as_str())));
            if reraises {
                continue;
            }
            match h.type_.as_deref() {
                None => all = true,
                Some(e) => exception_names(e, &mut names),
            }
        }
        let catch = if all { Catch::All } else { Catch::Names(names) };
        let has_handlers = !t.handlers.is_empty();
        if has_handlers {
            self.catches.push(catch);
        }
        let caught_before = self.caught_certain;
        let mut body = self.exec_block(&t.body, st.clone());
        if has_handlers {
            self.catches.pop();
        }
        // The body raised for certain (`try: unicode = unicode except NameError: ...`): its
        // `else:` runs only if the analysis is wrong about that — an undecided condition.
        let raised = u32::from(self.caught_certain > caught_before);
        let mut out = Out::default();
        let mut normal = None;
        // Unless the body always raises, a handler runs only if something in it failed: an
        // undecided condition (`try: from numpy.exceptions import X except ImportError: from
        // numpy import X` is version-dependent code).
        let guarded = u32::from(body.normal.is_some() || body.raises.is_none());
        // An optional import that succeeded: its fallback never runs
        // (`interp/optional_import.rs`).
        let imported = raised == 0
            && body.raises.is_none()
            && body
                .normal
                .as_ref()
                .is_some_and(|s| self.imports_succeeded(&t.body, s));
        if has_handlers && !imported {
            // A handler may start from any point of the body: approximate by the join of the
            // states before, after and at the raises.
            let mut entry = join_opt(join_opt(Some(st), body.normal.clone()), body.raises.take());
            // What the body passed to calls is what one of them may have refused: in a handler
            // (and after it) those values are unknown. `try: r = float(x); return ... except
            // TypeError: pass` then `len(x)`: the handler runs only for an `x` that is not a
            // number, whatever the analysis knew of `x`.
            if let Some(s) = &mut entry {
                let (mut names, attrs, receivers) = call_arguments(&t.body);
                // A receiver of the program's own class keeps what is known of it: its methods
                // are analysed, and it is rarely what a handler tests.
                names.extend(receivers.into_iter().filter(|n| {
                    !matches!(s.lookup_value(n), Some(super::value::Value::Instance(_)))
                }));
                self.forget(&names, &attrs, s);
            }
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                let Some(mut s) = entry.clone() else { break };
                if let Some(ty) = &h.type_ {
                    self.eval(ty, &mut s);
                }
                if let Some(n) = &h.name {
                    self.bind(n.as_str(), Value::Top, &mut s);
                }
                self.undecided += guarded;
                self.in_handler += guarded;
                let mut r = self.exec_block(&h.body, s);
                self.in_handler -= guarded;
                self.undecided -= guarded;
                normal = join_opt(normal, r.normal.take());
                out.absorb(&mut r);
            }
        }
        let body_normal = body.normal.take();
        out.absorb(&mut body);
        if let Some(s) = body_normal {
            self.undecided += raised;
            let mut r = self.exec_block(&t.orelse, s);
            self.undecided -= raised;
            normal = join_opt(normal, r.normal.take());
            out.absorb(&mut r);
        }
        if !t.finalbody.is_empty() {
            match normal {
                Some(s) => {
                    let mut r = self.exec_block(&t.finalbody, s);
                    normal = r.normal.take();
                    out.absorb(&mut r);
                }
                None => normal = None,
            }
        }
        out.normal = normal;
        out
    }

    /// `x op= v`. Lists extend in place; an array keeps its shape, so the broadcast result must
    /// fit it (NumPy: "non-broadcastable output operand").
    fn aug_assign(&mut self, a: &'a ast::StmtAugAssign, st: &mut State) {
        let cur = self.eval(&a.target, st);
        let rhs = self.eval(&a.value, st);
        // `layers += [block]` on an `nn.ModuleList` extends the list it holds, in place;
        // `seq += other` on an `nn.Sequential` appends the other's children
        // (`torch/containers.rs`).
        if a.op == ast::Operator::Add
            && let Some(new) = crate::torch::containers::concatenated(&cur, &rhs)
        {
            self.assign(&a.target, new, st);
            return;
        }
        // A ModuleList's `+=` extends the list it holds.
        let cur = match cur.held_modules() {
            Some(list @ Value::List(_)) if a.op == ast::Operator::Add => list,
            _ => cur,
        };
        if let (ast::Operator::Add, Value::List(addr)) = (a.op, &cur) {
            let items = match &rhs {
                Value::Tuple(s) => Some(s.clone()),
                Value::List(b) => st.list(*b),
                _ => None,
            };
            let new = match (st.list(*addr), items) {
                (Some(Seq::Exact(x)), Some(Seq::Exact(y))) => {
                    Seq::Exact(x.iter().chain(y.iter()).cloned().collect())
                }
                (Some(x), Some(y)) => {
                    Seq::Summary(Box::new(x.join(&y).element()), Int::Range(Some(0), None))
                }
                _ => Seq::Summary(Box::new(Value::Top), Int::Range(Some(0), None)),
            };
            if let Some(Obj::List(s)) = st.obj_mut(*addr) {
                *s = new;
            }
            return;
        }
        let result = self.binop(a.op, &cur, &rhs, a.range(), st);
        // A 0-d "array" here may be a NumPy scalar (`np.log(2.0)` is an `np.float64`), which
        // `op=` replaces rather than writes into: the broadcast result is the new value.
        if let (Value::Array(s), Value::Array(_)) = (&cur, &result)
            && s.rank() == Some(0)
        {
            self.assign(&a.target, result, st);
            return;
        }
        if let (Value::Array(s), Value::Array(r)) = (&cur, &result) {
            if s != r && s.size().is_some() && r.size().is_some() {
                self.report(
                    a.range(),
                    "W502",
                    super::Exc::Value,
                    format!(
                        "non-broadcastable output operand with shape {s} doesn't match the broadcast shape {r}"
                    ),
                    crate::Certainty::Certain,
                );
            }
            let keep = Value::Array(s.clone());
            self.assign(&a.target, keep, st);
            return;
        }
        self.assign(&a.target, result, st);
    }

    // ----- variables -----

    /// Bind `name` in the current scope (locals in a function or class body, else globals).
    pub(crate) fn bind(&mut self, name: &str, v: Value, st: &mut State) {
        let v = match v {
            // An unknown integer gets a name of its own, so that two uses of it are known to
            // be equal (`np.zeros((n, 3)) + np.ones((n, 3))` is fine).
            Value::Int(Int::Range(lo, hi)) if lo.is_none() || hi.is_none() => {
                Value::Int(Int::Sym(self.fresh_sym(name)))
            }
            v => v,
        };
        let binding = Binding {
            value: v,
            maybe_unbound: false,
        };
        let global = match self.cur_func {
            Some(f) => self.funcs[f as usize].scope.globals.contains(name),
            None => false,
        };
        match &mut st.locals {
            Some(l) if !global => {
                Arc::make_mut(l).insert(name.into(), binding);
            }
            _ => {
                Arc::make_mut(&mut st.globals).insert(name.into(), binding);
            }
        }
    }

    /// Assign to a target expression (name, tuple, attribute, subscript).
    pub(crate) fn assign(&mut self, target: &'a Expr, v: Value, st: &mut State) {
        let unknown = super::coverage::holds_unknown(&v, st);
        if self.coverage.binds(unknown) {
            super::coverage::with_dotted(target, |text| self.coverage.bind(text, unknown));
        }
        match target {
            Expr::Name(n) => {
                self.record_type(n.range, &v);
                if matches!(v, Value::Top) {
                    self.record_unknown(n.range, self.coverage.origin);
                }
                self.bind(n.id.as_str(), v, st)
            }
            Expr::Tuple(t) => self.unpack(&t.elts, t.range, v, st),
            Expr::List(t) => self.unpack(&t.elts, t.range, v, st),
            Expr::Starred(s) => self.assign(&s.value, v, st),
            Expr::Attribute(a) => {
                if self.assign_named_tuple_defaults(a, &v, st) {
                    return;
                }
                let obj = self.eval(&a.value, st);
                // Through a property whose setter is a function of the program: run it, as
                // Python does (`self.fopt = ...` in `__init__` through `property(get, set)`).
                let setter =
                    match &obj {
                        Value::Instance(addr) => self.instance_class(st, *addr).and_then(|c| {
                            match self.class_attr(c, a.attr.as_str(), 0) {
                                Some(Value::Method(_, k)) => {
                                    super::call::property_setter(&k).flatten()
                                }
                                _ => None,
                            }
                        }),
                        _ => None,
                    };
                if let Some(set) = setter
                    && !self.classes_meta_or_setattr(st, &obj)
                {
                    let args = super::call::Args {
                        pos: vec![v],
                        ..Default::default()
                    };
                    self.call_function(set, Some(obj.clone()), args, a.range, st);
                    return;
                }
                match obj {
                    Value::Namespace(addr) => super::argparse::set_option(st, addr, &a.attr, v),
                    // `module.NAME = v` (pytest's `setup_module(module)`).
                    Value::Module(super::value::ModRef::User(m)) => {
                        self.set_module_global(m, &a.attr, v, st);
                    }
                    Value::Instance(addr) if a.attr.as_str() == "__dict__" => {
                        self.set_instance_dict(addr, &v, st);
                    }
                    // Through a property's setter or another descriptor of the class (a value
                    // the analysis does not know): the setter may store anything anywhere.
                    Value::Instance(addr)
                        if self.instance_class(st, addr).is_some_and(|c| {
                            let ca = self.class_attr(c, a.attr.as_str(), 0);
                            matches!(ca, Some(Value::Top))
                                || matches!(&ca, Some(Value::Method(_, k))
                                    if super::call::property_setter(k).is_some())
                                || matches!(ca, Some(Value::Instance(d))
                                if self.instance_class(st, d).is_some_and(|dc| {
                                    self.class_attr(dc, "__set__", 0).is_some()
                                }))
                                || self.classes[c as usize].meta
                                || self.class_attr(c, "__setattr__", 0).is_some()
                                // A class data attribute under a base the analysis cannot see:
                                // that base's `__setattr__` or metaclass may route the write
                                // (astropy's models turn `model.offset = 3` into a parameter).
                                || (matches!(ca, Some(Value::Instance(_)))
                                    && self.library_base(c, 0))
                        }) =>
                    {
                        super::expr::forget_attributes(st, addr);
                    }
                    Value::Instance(addr) => {
                        self.register_child(addr, a.attr.as_str(), &v, st);
                        if let Some(Obj::Instance { attrs, .. }) = st.obj_mut(addr) {
                            attrs.insert(
                                a.attr.as_str().into(),
                                Binding {
                                    value: v,
                                    maybe_unbound: false,
                                },
                            );
                        }
                    }
                    Value::Class(c) => {
                        Arc::make_mut(&mut self.classes[c as usize]).attrs.insert(
                            a.attr.as_str().into(),
                            Binding {
                                value: v,
                                maybe_unbound: false,
                            },
                        );
                    }
                    // `backbone[i].ceil_mode = True`: the changed layer is written back where
                    // it was read from (`torch/layer_setattr.rs`).
                    Value::Layer(l) => {
                        use crate::torch::layer_setattr::{Change, set};
                        let new = match set(&l, a.attr.as_str(), &v) {
                            Change::Unchanged => return,
                            Change::Changed(layer) => Value::Layer(Arc::new(layer)),
                            Change::Unknown => Value::Top,
                        };
                        self.assign(&a.value, new, st);
                    }
                    Value::Array(_) if a.attr.as_str() == "shape" => {
                        // `x.shape = (3, 2)` reshapes in place.
                        let new = self.reshape_value(&obj, &[v], a.range(), st);
                        if let Expr::Name(n) = &*a.value {
                            self.bind(n.id.as_str(), new, st);
                        }
                    }
                    _ => {}
                }
            }
            Expr::Subscript(s) => {
                let obj = self.eval(&s.value, st);
                let idx = self.eval(&s.slice, st);
                // `kwargs[k] = v` rebinds the variable to the changed keywords.
                if let (Value::Kwargs(items), Expr::Name(n)) = (&obj, &*s.value) {
                    let new = match &idx {
                        Value::Str(Some(k)) => Value::kwargs_with(items, k, Some(v)),
                        _ => Value::Top,
                    };
                    self.bind(n.id.as_str(), new, st);
                    return;
                }
                // `features[1] = layer` on an `nn.Sequential`: the new Sequential, written back.
                if let (Value::Layer(l), Some(i)) = (&obj, idx.as_int().and_then(|i| i.constant()))
                    && let Some(new) = crate::torch::layer_setattr::with_child(l, i, v.clone())
                {
                    self.assign(&s.value, new, st);
                    return;
                }
                if self
                    .index_array_set(&obj, &idx, &s.slice, &v, s.range(), st)
                    .is_none()
                {
                    self.set_item(&obj, &idx, v, s.range(), st);
                }
            }
            _ => {}
        }
    }

    fn unpack(&mut self, targets: &'a [Expr], range: TextRange, v: Value, st: &mut State) {
        let star = targets.iter().position(|t| matches!(t, Expr::Starred(_)));
        let items = self.unpacked_items(&v, st);
        if let Some(items) = &items
            && self.unpack_count_error(targets, star, items.len(), range)
        {
            for t in targets {
                self.assign(t, Value::Top, st);
            }
            return;
        }
        match (items, star) {
            (Some(items), None) if items.len() == targets.len() => {
                for (t, x) in targets.iter().zip(items) {
                    self.assign(t, x, st);
                }
            }
            (Some(items), Some(k)) if items.len() + 1 >= targets.len() => {
                let after = targets.len() - k - 1;
                for (t, x) in targets[..k].iter().zip(items.iter()) {
                    self.assign(t, x.clone(), st);
                }
                let middle: Vec<Value> = items[k..items.len() - after].to_vec();
                let list = self.alloc_list(Seq::Exact(middle.into()), targets[k].start(), st);
                self.assign(&targets[k], list, st);
                for (t, x) in targets[k + 1..]
                    .iter()
                    .zip(items[items.len() - after..].iter())
                {
                    self.assign(t, x.clone(), st);
                }
            }
            _ => {
                let elem = match &v {
                    Value::Tuple(s) => s.element(),
                    Value::List(a) => st.list(*a).map_or(Value::Top, |s| s.element()),
                    Value::Array(s) => match s.dims() {
                        Some(d) if d.len() > 1 => {
                            Value::Array(crate::Shape::Known(d[1..].to_vec()))
                        }
                        _ => Value::Top,
                    },
                    _ => Value::Top,
                };
                for t in targets {
                    let x = if matches!(t, Expr::Starred(_)) {
                        Value::Top
                    } else {
                        elem.clone()
                    };
                    self.assign(t, x, st);
                }
            }
        }
    }

    fn delete(&mut self, target: &'a Expr, st: &mut State) {
        match target {
            Expr::Name(n) => {
                let name = n.id.as_str();
                match &mut st.locals {
                    Some(l) if l.contains_key(name) => {
                        Arc::make_mut(l).remove(name);
                    }
                    _ => {
                        Arc::make_mut(&mut st.globals).remove(name);
                    }
                }
            }
            Expr::Tuple(t) => t.elts.iter().for_each(|e| self.delete(e, st)),
            Expr::Subscript(s) => {
                let obj = self.eval(&s.value, st);
                let idx = self.eval(&s.slice, st);
                if let (Value::Kwargs(items), Expr::Name(n)) = (&obj, &*s.value) {
                    let new = match &idx {
                        Value::Str(Some(k)) => Value::kwargs_with(items, k, None),
                        _ => Value::Top,
                    };
                    self.bind(n.id.as_str(), new, st);
                    return;
                }
                if let Value::List(a) = obj
                    && let Some(Obj::List(seq)) = st.obj_mut(a)
                {
                    *seq = Seq::Summary(Box::new(seq.element()), Int::Range(Some(0), None));
                }
                // `del d[key]`: that item goes; under a key not told apart, any may have gone.
                if let Value::Dict(a) = obj
                    && let Some(Obj::Dict { items, exact }) = st.obj_mut(a)
                {
                    if idx.is_const_key() {
                        items.retain(|(k, _)| *k != idx);
                    } else {
                        items.clear();
                        *exact = false;
                    }
                }
            }
            _ => {
                self.eval(target, st);
            }
        }
    }

    /// The address of an object made here (see [`Addr`]).
    pub(crate) fn heap_addr(&self, site: u32) -> Addr {
        Addr {
            module: self.cur_module,
            site,
            call: self.call_site,
            iter: self.iter_salt,
        }
    }

    pub(crate) fn alloc_dict(
        &mut self,
        items: Vec<(Value, Value)>,
        exact: bool,
        site: ruff_text_size::TextSize,
        st: &mut State,
    ) -> Value {
        let addr = self.heap_addr(u32::from(site));
        st.insert_obj(addr, Obj::Dict { items, exact });
        Value::Dict(addr)
    }

    pub(crate) fn alloc_list(
        &mut self,
        seq: Seq,
        site: ruff_text_size::TextSize,
        st: &mut State,
    ) -> Value {
        let addr = self.heap_addr(u32::from(site));
        st.insert_obj(addr, Obj::List(seq));
        Value::List(addr)
    }
}

/// `@dataclass`, `@dataclasses.dataclass`, `@dataclass(frozen=True)`, ...
fn is_dataclass_decorator(e: &Expr) -> bool {
    match e {
        Expr::Call(c) => is_dataclass_decorator(&c.func),
        Expr::Name(n) => n.id.as_str() == "dataclass",
        Expr::Attribute(a) => a.attr.as_str() == "dataclass",
        _ => false,
    }
}

/// A `ClassVar[...]` annotation: a class attribute, not a dataclass field.
pub(crate) fn is_classvar(e: &Expr) -> bool {
    match e {
        Expr::Subscript(s) => is_classvar(&s.value),
        Expr::Name(n) => n.id.as_str() == "ClassVar",
        Expr::Attribute(a) => a.attr.as_str() == "ClassVar",
        _ => false,
    }
}

/// The allocation salt of iteration `i` of the unrolled loop at `site`, inside iterations
/// `outer` (FNV-1a over the three; 0 is kept for "outside unrolled loops").
pub(crate) fn iteration_salt(outer: u32, site: ruff_text_size::TextSize, i: usize) -> u32 {
    salt(&[outer, u32::from(site), i as u32])
}

/// The allocation salt inside a method of the object at `recv` (see `Interp::call_function`).
pub(crate) fn receiver_salt(outer: u32, recv: Addr) -> u32 {
    salt(&[outer, recv.module, recv.site, recv.call, recv.iter])
}

/// FNV-1a over the words; 0 is kept for "no salt".
fn salt(words: &[u32]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for x in words {
        for b in x.to_le_bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
    h.max(1)
}

/// The exception class names an `except` clause names (`ValueError`, `(A, B)`, `np.linalg.X`).
fn exception_names(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Name(n) => out.push(n.id.to_string()),
        Expr::Attribute(a) => out.push(a.attr.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|x| exception_names(x, out)),
        // Anything else (a variable holding classes): assume it catches everything.
        _ => out.push("Exception".to_owned()),
    }
}

/// What a context manager swallows from its block: anything for the tests' "this raises"
/// (`pytest.raises(E)`, `self.assertRaises(E)` and `...Regex`, `numpy.testing.assert_raises(E)`:
/// the block is fed bad input on purpose), the named exceptions for `contextlib.suppress(E, ...)`.
fn expects_error(e: &Expr) -> Option<Catch> {
    let Expr::Call(c) = e else { return None };
    let name = match &*c.func {
        Expr::Attribute(a) => a.attr.as_str(),
        Expr::Name(n) => n.id.as_str(),
        _ => return None,
    };
    match name {
        "raises"
        | "assertRaises"
        | "assertRaisesRegex"
        | "assert_raises"
        | "assert_raises_regex" => Some(Catch::All),
        "suppress" => {
            let mut names = Vec::new();
            c.arguments
                .args
                .iter()
                .for_each(|a| exception_names(a, &mut names));
            Some(Catch::Names(names))
        }
        _ => None,
    }
}

/// `len(range(a, b, c))`.
pub(crate) fn range_len(a: i64, b: i64, c: i64) -> i64 {
    if c > 0 && a < b {
        (b - a - 1) / c + 1
    } else if c < 0 && a > b {
        (a - b - 1) / (-c) + 1
    } else {
        0
    }
}

/// Is the function run only under a condition its decorators state (`@pytest.mark.skipif(...)`,
/// `@unittest.skipIf(...)`, `@unittest.skipUnless(...)`, `@pytest.mark.xfail(...)`)?
fn conditionally_run(f: &ast::StmtFunctionDef) -> bool {
    f.decorator_list.iter().any(|d| {
        let Expr::Call(c) = &d.expression else {
            return false;
        };
        let name = match &*c.func {
            Expr::Attribute(a) => a.attr.as_str(),
            Expr::Name(n) => n.id.as_str(),
            _ => return false,
        };
        matches!(name, "skipif" | "skipIf" | "skipUnless" | "xfail")
    })
}

impl Interp<'_> {
    /// The instance's class is made by a metaclass of the program or defines `__setattr__`:
    /// an assignment may do anything, whatever the attribute.
    fn classes_meta_or_setattr(&self, st: &State, obj: &Value) -> bool {
        let Value::Instance(addr) = obj else {
            return false;
        };
        self.instance_class(st, *addr).is_some_and(|c| {
            self.classes[c as usize].meta || self.class_attr(c, "__setattr__", 0).is_some()
        })
    }

    /// The class of an instance on the heap.
    pub(crate) fn instance_class(&self, st: &State, addr: super::value::Addr) -> Option<u32> {
        match st.heap.get(&addr).map(|o| &**o) {
            Some(Obj::Instance { class, .. }) => Some(*class),
            _ => None,
        }
    }
}

/// The variables passed to calls in the simple statements of `body` (not in nested blocks):
/// names, `name.attr`, and the base name of `name[...]`; and the names methods are called on.
#[allow(clippy::type_complexity)]
fn call_arguments(body: &[Stmt]) -> (Vec<&str>, Vec<(&str, &str)>, Vec<&str>) {
    use ruff_python_ast::visitor::{self, Visitor};
    #[derive(Default)]
    struct Args<'e> {
        names: Vec<&'e str>,
        attrs: Vec<(&'e str, &'e str)>,
        receivers: Vec<&'e str>,
    }
    impl<'e> Visitor<'e> for Args<'e> {
        fn visit_expr(&mut self, e: &'e Expr) {
            // The receiver of a method call (`T.copy()` may lack `copy`: `except
            // AttributeError: T = T.clone()` handles a Polars frame).
            if let Expr::Call(c) = e
                && let Expr::Attribute(f) = &*c.func
                && let Expr::Name(n) = &*f.value
            {
                self.receivers.push(n.id.as_str());
            }
            if let Expr::Call(c) = e {
                let args = c.arguments.args.iter();
                for a in args.chain(c.arguments.keywords.iter().map(|k| &k.value)) {
                    match a {
                        Expr::Name(n) => self.names.push(n.id.as_str()),
                        Expr::Attribute(x) => {
                            if let Expr::Name(n) = &*x.value {
                                self.attrs.push((n.id.as_str(), x.attr.as_str()));
                            }
                        }
                        Expr::Subscript(x) => {
                            if let Expr::Name(n) = &*x.value {
                                self.names.push(n.id.as_str());
                            }
                        }
                        _ => {}
                    }
                }
            }
            visitor::walk_expr(self, e);
        }
        fn visit_stmt(&mut self, s: &'e Stmt) {
            if matches!(
                s,
                Stmt::Expr(_)
                    | Stmt::Assign(_)
                    | Stmt::AugAssign(_)
                    | Stmt::AnnAssign(_)
                    | Stmt::Return(_)
            ) {
                visitor::walk_stmt(self, s);
            }
        }
    }
    let mut v = Args::default();
    for s in body {
        v.visit_stmt(s);
    }
    (v.names, v.attrs, v.receivers)
}
