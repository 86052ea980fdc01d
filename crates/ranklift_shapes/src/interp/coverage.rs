//! What the analysis understood of the entry module: the last value each expression had, and
//! where it lost track of library values.
//!
//! **Why:** "All checks passed." reads the same whether the analysis checked every tensor of a
//! model or understood nothing of it (an unmodelled call at the top of `forward`, a loader built
//! from an unknown dict). Coverage tells them apart, for users and for whoever improves the
//! analysis: the share of expressions whose value is known, the share of array and tensor
//! values whose shape is fully known, and the causes — library attributes the analysis does not
//! model, ranked by how often the file met them.
//!
//! An expression is counted once (its last evaluation, after the loops' fixpoint): literals are
//! not counted (always known). A value the analysis lost is "unknown", whatever it was at run
//! time; so the share of tensor shapes is over the arrays and tensors it *saw*, and the share
//! of expressions understood is what says how much it saw.

use ruff_text_size::TextRange;

use crate::interp::state::FxMap;
use crate::interp::value::Value;
use crate::shape::Shape;

/// The cause given to what a function the program never calls receives: it is analysed with
/// unknown arguments (and, for a method, an unknown `self`), so what flows from them is unknown
/// for want of a caller, not of a model.
pub const NO_CALLER: &str = "arguments of functions never called (analysed with unknown inputs)";

/// The cause given to the result of a call from a function nobody calls into another module's
/// code that its step budget cut short (the analysis' limit, not a missing model).
pub const CALL_BUDGET: &str = "calls into other modules cut short by their step budget";

/// The cause given to the result of a call, from a function nobody calls, through a
/// decorator's wrapper or a class's own `__new__` (not run there: see `call_function`).
pub const WRAPPED_FROM_UNCALLED: &str =
    "calls through decorators' wrappers or __new__ from functions never called (not followed)";

/// The cause given to a `lambda` the analysis does not run (one taking `*args`, `**kwargs` or
/// positional-only parameters, `interp/lambda.rs`): what it returns is unknown.
pub const LAMBDA: &str = "lambdas with *args, **kwargs or positional-only parameters (not run)";

/// Whether cause `name` is one of the analysis' own limits ([`NO_CALLER`], [`CALL_BUDGET`],
/// [`WRAPPED_FROM_UNCALLED`]) rather than an API it does not model.
pub fn is_analysis_limit(name: &str) -> bool {
    name == NO_CALLER || name == CALL_BUDGET || name == WRAPPED_FROM_UNCALLED
}

/// How well one expression's value is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Unknown,
    Known,
    /// An array or tensor: its rank unknown, known, or every size known.
    ArrayNoRank,
    ArrayRank,
    ArrayFull,
}

/// Where the analysis lost track of values: a library attribute it does not model (or
/// [`NO_CALLER`]), first met in `module` at `range`.
#[derive(Debug, Clone)]
struct Cause {
    name: String,
    module: u32,
    range: TextRange,
    uses: u32,
}

/// What was understood, and why not.
///
/// Every unknown value carries (approximately) the cause it came from: the cause met while an
/// expression was evaluated becomes the expression's *origin* when its value is unknown; a
/// name or attribute bound to an unknown value keeps its origin for the places that read it
/// (by its text, scopes aside: the origin only ranks causes, it never decides a finding).
#[derive(Debug, Default, Clone)]
pub struct Coverage {
    seen: FxMap<(u32, u32), (Class, Option<u32>)>,
    causes: Vec<Cause>,
    by_name: FxMap<String, u32>,
    /// The origin of the unknown value being computed (see [`Coverage`]).
    pub(crate) origin: Option<u32>,
    /// Names and attributes (`x`, `self.x`) bound to an unknown value: its origin.
    bound: FxMap<String, u32>,
}

/// One cause, for a report.
#[derive(Debug, Clone)]
pub struct CauseSummary {
    pub name: String,
    /// The module (of the run: 0 the entry) and range where it was first met.
    pub module: u32,
    pub range: TextRange,
    /// How often it was met.
    pub uses: u32,
    /// The entry's expressions left unknown that trace back to it.
    pub darkened: u32,
}

/// The counts, for a report.
#[derive(Debug, Clone, Default)]
pub struct CoverageSummary {
    /// Expressions evaluated (literals aside).
    pub expressions: usize,
    /// Of those, with a known value.
    pub understood: usize,
    /// Array and tensor values seen.
    pub arrays: usize,
    /// Of those, with their rank known, and with every size known.
    pub arrays_rank_known: usize,
    pub arrays_fully_known: usize,
    /// Unknown expressions no cause was traced to.
    pub unattributed: usize,
    /// The causes that darkened an expression of the entry, or that the entry met itself,
    /// most darkening first.
    pub causes: Vec<CauseSummary>,
}

impl Coverage {
    /// Count `v` as the value of the expression at `range`; `origin` is the cause of an
    /// unknown one.
    pub(crate) fn record(&mut self, range: TextRange, v: &Value, origin: Option<u32>) {
        let shape_class = |s: &Shape| match s.dims() {
            None => Class::ArrayNoRank,
            Some(d) if d.iter().all(|d| matches!(d, crate::dim::Dim::Known(_))) => Class::ArrayFull,
            Some(_) => Class::ArrayRank,
        };
        let class = match v {
            Value::Top => Class::Unknown,
            Value::Array(s) | Value::Tensor(s) => shape_class(s),
            _ => Class::Known,
        };
        let origin = if class == Class::Unknown {
            origin
        } else {
            None
        };
        self.seen.insert(
            (u32::from(range.start()), u32::from(range.end())),
            (class, origin),
        );
    }

    /// What a new entry starts from after the imported modules ran in a shared run
    /// ([`super::Interp::fork`]): the causes met there (the entry's values may trace back to
    /// them), none of the expressions or bindings, which belong to no entry.
    pub(crate) fn for_entry(&self) -> Coverage {
        Coverage {
            causes: self.causes.clone(),
            by_name: self.by_name.clone(),
            ..Coverage::default()
        }
    }

    /// Met cause `what` in `module` at `range`: its id, which becomes the current origin.
    pub(crate) fn cause(&mut self, what: &str, module: u32, range: TextRange) -> u32 {
        let id = match self.by_name.get(what) {
            Some(&id) => {
                self.causes[id as usize].uses += 1;
                id
            }
            None => {
                let id = self.causes.len() as u32;
                self.causes.push(Cause {
                    name: what.to_owned(),
                    module,
                    range,
                    uses: 1,
                });
                self.by_name.insert(what.to_owned(), id);
                id
            }
        };
        self.origin = Some(id);
        id
    }

    /// The name of cause `id`.
    pub(crate) fn cause_name(&self, id: u32) -> &str {
        &self.causes[id as usize].name
    }

    /// `target` (its text) is bound to a value; `unknown` when that value is unknown, with the
    /// current origin.
    /// Would [`bind`](Self::bind) with `unknown` change anything? (Spares the caller the text
    /// of the target, built for every assignment otherwise.)
    pub(crate) fn binds(&self, unknown: bool) -> bool {
        (unknown && self.origin.is_some()) || !self.bound.is_empty()
    }

    /// Is any target bound to an unknown value's origin?
    pub(crate) fn any_bound(&self) -> bool {
        !self.bound.is_empty()
    }

    pub(crate) fn bind(&mut self, target: &str, unknown: bool) {
        match self.origin.filter(|_| unknown) {
            Some(o) => {
                self.bound.insert(target.to_owned(), o);
            }
            None if !self.bound.is_empty() => {
                self.bound.remove(target);
            }
            None => {}
        }
    }

    /// The origin of the unknown value read from `target` (its text).
    pub(crate) fn bound(&self, target: &str) -> Option<u32> {
        self.bound.get(target).copied()
    }

    pub fn summary(&self) -> CoverageSummary {
        let count = |f: &dyn Fn(Class) -> bool| self.seen.values().filter(|c| f(c.0)).count();
        let mut darkened = vec![0u32; self.causes.len()];
        let mut unattributed = 0;
        for (class, origin) in self.seen.values() {
            match (class, origin) {
                (Class::Unknown, Some(o)) => darkened[*o as usize] += 1,
                (Class::Unknown, None) => unattributed += 1,
                _ => {}
            }
        }
        let mut causes: Vec<CauseSummary> = self
            .causes
            .iter()
            .zip(darkened)
            .filter(|(c, d)| *d > 0 || c.module == 0)
            .map(|(c, d)| CauseSummary {
                name: c.name.clone(),
                module: c.module,
                range: c.range,
                uses: c.uses,
                darkened: d,
            })
            .collect();
        causes.sort_by(|a, b| {
            (b.darkened, b.uses)
                .cmp(&(a.darkened, a.uses))
                .then(a.module.cmp(&b.module))
                .then(a.range.start().cmp(&b.range.start()))
        });
        CoverageSummary {
            expressions: self.seen.len(),
            understood: count(&|c| c != Class::Unknown),
            arrays: count(&|c| {
                matches!(c, Class::ArrayNoRank | Class::ArrayRank | Class::ArrayFull)
            }),
            arrays_rank_known: count(&|c| matches!(c, Class::ArrayRank | Class::ArrayFull)),
            arrays_fully_known: count(&|c| c == Class::ArrayFull),
            unattributed,
            causes,
        }
    }
}

/// Is `v` unknown, or a tuple or list with an unknown item (one level deep)? Its origin is
/// then kept for what is computed from it.
pub(crate) fn holds_unknown(v: &Value, st: &crate::interp::state::State) -> bool {
    use crate::interp::value::Seq;
    let any = |s: &Seq| match s {
        Seq::Exact(items) => items.iter().any(|v| matches!(v, Value::Top)),
        Seq::Summary(item, _) => matches!(**item, Value::Top),
    };
    match v {
        Value::Top => true,
        Value::Tuple(s) => any(s),
        Value::List(a) => st.list(*a).is_some_and(|s| any(&s)),
        _ => false,
    }
}

/// `a.b.c` as text, for a chain of names and attributes, handed to `f`. The text is written
/// into a buffer kept for the next call: this runs at every unknown name or attribute read
/// and every attribute assigned, and building a new string each time was 5% of a test
/// file's analysis.
pub(crate) fn with_dotted<R>(e: &ruff_python_ast::Expr, f: impl FnOnce(&str) -> R) -> Option<R> {
    fn write(e: &ruff_python_ast::Expr, buf: &mut String) -> bool {
        match e {
            ruff_python_ast::Expr::Name(n) => {
                buf.push_str(n.id.as_str());
                true
            }
            ruff_python_ast::Expr::Attribute(a) => {
                let ok = write(&a.value, buf);
                buf.push('.');
                buf.push_str(a.attr.as_str());
                ok
            }
            _ => false,
        }
    }
    if let ruff_python_ast::Expr::Name(n) = e {
        return Some(f(n.id.as_str()));
    }
    thread_local! {
        static TEXT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    TEXT.with_borrow_mut(|buf| {
        buf.clear();
        write(e, buf).then(|| f(buf.as_str()))
    })
}

impl CoverageSummary {
    /// Add another file's counts (a directory's total).
    pub fn add(&mut self, o: &CoverageSummary) {
        self.expressions += o.expressions;
        self.understood += o.understood;
        self.arrays += o.arrays;
        self.arrays_rank_known += o.arrays_rank_known;
        self.arrays_fully_known += o.arrays_fully_known;
        self.unattributed += o.unattributed;
    }

    /// Expressions that were, or may have been, arrays or tensors: those whose value was one,
    /// and those whose value the analysis lost (it may have been one).
    pub fn tensor_expressions(&self) -> usize {
        self.arrays + (self.expressions - self.understood)
    }

    /// The summary line's words: `61% of tensor expressions understood` — of the
    /// [`tensor_expressions`](Self::tensor_expressions), those whose shape's rank is known.
    pub fn headline(&self) -> String {
        match self.tensor_expressions() {
            0 if self.expressions == 0 => "no expression analysed".into(),
            0 => "no tensor expression seen".into(),
            n => format!(
                "{}% of tensor expressions understood",
                self.arrays_rank_known * 100 / n
            ),
        }
    }

    /// `understood 83% of 412 expressions; 61% of 96 array and tensor shapes fully known`.
    pub fn describe(&self) -> String {
        let pct = |a: usize, b: usize| (a * 100).checked_div(b).unwrap_or(0);
        if self.expressions == 0 {
            return "no expression analysed".into();
        }
        let arrays = if self.arrays == 0 {
            "no array or tensor seen".to_owned()
        } else {
            format!(
                "{}% of {} array and tensor shapes fully known",
                pct(self.arrays_fully_known, self.arrays),
                self.arrays
            )
        };
        format!(
            "understood {}% of {} expressions; {arrays}",
            pct(self.understood, self.expressions),
            self.expressions
        )
    }
}
