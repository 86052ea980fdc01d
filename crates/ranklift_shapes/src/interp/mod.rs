//! The abstract interpreter: runs a Python program over abstract values and reports the
//! operations that fail.
//!
//! - [`value`]: abstract values (ints as constants / symbols / intervals, shapes, sequences, ...).
//! - [`state`]: variables and the heap, shared copy-on-write, with join and widening.
//! - `stmt`: statements — branches (both sides run and join unless the condition is known),
//!   loops (exact unrolling of short known loops, otherwise a fixpoint with widening), `try`,
//!   functions and classes.
//! - `expr`: expressions, Python's operators and builtins, subscripts.
//! - `call`: user functions (context-sensitive, memoised, recursion cut), classes and methods.
//! - `hints`: `NdArray[2, 3]` and `Annotated[np.ndarray, "n 3"]` hints.
//! - [`crate::numpy`]: the library models.
//!
//! Termination: every loop either unrolls a known, bounded number of times or iterates to a
//! fixpoint with widening; recursion is cut; and a global fuel counter stops the analysis of a
//! file that still takes too long (the findings so far are kept, a note says so).

mod argparse;
pub mod array_like;
mod attr_dict;
pub(crate) mod call;
mod comprehension;
pub mod coverage;
mod cut_calls;
mod dataclass_replace;
mod deepcopy;
mod dict_update;
mod escape;
mod expr;
mod fstring;
mod generator_loop;
mod getattr_default;
mod handler_reach;
pub mod hints;
mod index;
mod index_arrays;
mod instance_truth;
mod isinstance;
mod lambda;
mod library_state;
mod loop_cycle;
mod loop_peel;
mod named_tuple;
mod ops;
mod optional_import;
pub mod partial;
mod percent_format;
mod pytest_setup;
mod re_module;
mod scope;
pub mod sharded;
pub mod state;
pub(crate) mod stmt;
mod str_format;
mod strings;
mod super_call;
mod thread_local;
mod tolist;
mod unpack;
pub mod value;

use std::sync::Arc;

use ruff_python_ast::Stmt;
use ruff_text_size::TextRange;

use crate::Certainty;
pub(crate) use expr::shape_tuple;
use state::{FxMap, FxSet, State};
use value::Value;

/// Analysis options.
#[derive(Debug, Clone)]
pub struct Config {
    /// Statements and calls the analysis of one entry file may execute before it stops.
    pub fuel: u64,
    /// The NumPy whose names and messages findings follow.
    pub numpy: crate::numpy::NumpyVersion,
    /// Attribute names of the project's ndarray subclasses ([`array_like::attrs`]).
    pub array_like: Arc<FxSet<Arc<str>>>,
    /// Set from outside (a newer edit, a time budget, a shutdown): the analysis stops as if out
    /// of fuel at its next check.
    pub stop: Option<Arc<std::sync::atomic::AtomicBool>>,
    /// Record the shape of every array-valued name of the entry module (the editor's hover).
    pub collect_types: bool,
    /// Stop at this time as if out of fuel: the budget bounds wall time, not only steps.
    pub deadline: Option<std::time::Instant>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            fuel: 300_000,
            numpy: crate::numpy::NumpyVersion::default(),
            array_like: Arc::default(),
            stop: None,
            collect_types: false,
            deadline: None,
        }
    }
}

/// What a run found: findings, whether the budget ran out, where arrays were bound, and (with
/// [`Config::collect_types`]) the shape of each array-valued name of the entry module, joined
/// over every time it was evaluated.
pub struct RunOutput {
    pub findings: Vec<Finding>,
    pub out_of_fuel: bool,
    pub origins: Vec<Origin>,
    pub types: FxMap<TextRange, (bool, crate::Shape)>,
    /// Names of the entry whose value was unknown (with [`Config::collect_types`]): the cause
    /// it traces back to, when one was found.
    pub unknown: FxMap<TextRange, String>,
    /// What was understood of the entry module (`coverage`).
    pub coverage: coverage::CoverageSummary,
}

/// One module of the program.
#[derive(Clone)]
pub struct SourceModule<'a> {
    /// Dotted module name (`pkg.mod`); the entry file runs as `__main__`.
    pub name: String,
    pub suite: &'a [Stmt],
    /// Whether its findings are reported (modules given on the command line).
    pub report: bool,
    /// A package's `__init__.py` (its relative imports start from the package itself).
    pub is_package: bool,
}

/// A finding: a failing operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub module: u32,
    pub range: TextRange,
    pub code: &'static str,
    /// `ExceptionClass: message`, as CPython / NumPy print it.
    pub message: String,
    pub certainty: Certainty,
    /// Found in an imported module's code under a condition of that code the analysis could
    /// not decide (an `isinstance`/pandas dispatch on the entry's arguments, a validation that
    /// raises).
    pub guarded: bool,
    /// The array operands' shapes, in order (`x @ w`: both; `np.dot(a, b)`: `a`, `b`;
    /// `x.reshape(3, 3)`: `x`), when a library model raised it; `op` is the operator of a
    /// binary operation.
    pub operands: Vec<crate::Shape>,
    pub op: Option<&'static str>,
    /// The user-function calls that led here, outermost first: (module of the call, its range).
    pub chain: Vec<(u32, TextRange)>,
}

/// Where an array was bound: for a message's note that traces an operand back (`self.w` is
/// (256, 10): made at line 11, in the call at line 26).
#[derive(Debug, Clone)]
pub struct Origin {
    pub module: u32,
    /// The assignment target (`self.w`, `x`): matched against an operand by its source text.
    pub target: TextRange,
    pub stmt: TextRange,
    pub shape: crate::Shape,
    /// The calls that were running, outermost first.
    pub chain: Vec<(u32, TextRange)>,
}

/// Origins kept per run (most recent first when looked up); a bound on memory, not precision.
const MAX_ORIGINS: usize = 4096;

/// The exception class a finding raises, for `try`/`except` suppression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exc {
    Value,
    Type,
    ZeroDivision,
    Attribute,
    Index,
    Name,
    /// NumPy's `AxisError` (a `ValueError` and an `IndexError`).
    Axis,
    Import,
    /// `numpy.linalg.LinAlgError` (a `ValueError`).
    LinAlg,
    /// PyTorch's `RuntimeError` (shape mismatches in kernels).
    Runtime,
    /// An `assert` in library code (PyTorch's `MultiheadAttention` checks its input so).
    Assertion,
    /// Not an exception: a rejected or malformed hint.
    Hint,
}

impl Exc {
    pub fn name(self) -> &'static str {
        match self {
            Exc::Value => "ValueError",
            Exc::Type => "TypeError",
            Exc::ZeroDivision => "ZeroDivisionError",
            Exc::Attribute => "AttributeError",
            Exc::Index => "IndexError",
            Exc::Name => "NameError",
            Exc::Axis => "AxisError",
            Exc::Import => "ImportError",
            Exc::LinAlg => "LinAlgError",
            Exc::Runtime => "RuntimeError",
            Exc::Assertion => "AssertionError",
            Exc::Hint => "",
        }
    }

    /// Does `except <name>` catch it?
    fn caught_by(self, name: &str) -> bool {
        let own: &[&str] = match self {
            Exc::Value => &["ValueError"],
            Exc::Type => &["TypeError"],
            Exc::ZeroDivision => &["ZeroDivisionError", "ArithmeticError"],
            Exc::Attribute => &["AttributeError"],
            Exc::Index => &["IndexError", "LookupError"],
            Exc::Name => &["NameError"],
            Exc::Axis => &["AxisError", "ValueError", "IndexError", "LookupError"],
            Exc::Import => &["ImportError"],
            Exc::LinAlg => &["LinAlgError", "ValueError"],
            Exc::Runtime => &["RuntimeError"],
            Exc::Assertion => &["AssertionError"],
            Exc::Hint => &[],
        };
        self != Exc::Hint && (own.contains(&name) || matches!(name, "Exception" | "BaseException"))
    }
}

/// What the handlers of an enclosing `try` catch.
#[derive(Debug, Clone)]
enum Catch {
    All,
    Names(Vec<String>),
}

#[derive(Clone)]
pub(crate) struct FuncDef<'a> {
    pub module: u32,
    pub def: &'a ruff_python_ast::StmtFunctionDef,
    pub defaults: Vec<Option<Value>>,
    pub kw_defaults: Vec<Option<Value>>,
    /// The enclosing function's variables (joined over the definition-time states of this
    /// instance: see `func_index`).
    pub closure: Option<Arc<state::Env>>,
    pub scope: Arc<scope::Scope>,
    pub class: Option<u32>,
    pub analysed: bool,
    /// The first instance of the same `def` (see `func_index`): the one a function nobody
    /// called is analysed as, and the one marked analysed when any instance runs.
    pub canonical: u32,
    /// The function this one is defined in (for names bound there after this definition).
    pub parent: Option<u32>,
    /// Run only under a condition (`@pytest.mark.skipif(not NUMPY_LT_2_0, ...)`): its body is
    /// version- or platform-dependent code, analysed as under an undecided condition.
    pub conditional: bool,
}

#[derive(Clone)]
pub(crate) struct ClassDef {
    pub attrs: state::Env,
    pub bases: Vec<Value>,
    /// Created by a metaclass of the program (`class Model(metaclass=_ModelMeta)`), itself or
    /// through a base: the metaclass may turn class attributes into descriptors, so data
    /// attributes read through the class or its instances are unknown.
    pub meta: bool,
    /// A `@dataclass`: its fields in order (the annotated names of its body, after those of
    /// its dataclass bases). The generated `__init__` binds them from the call's arguments.
    pub fields: Option<Vec<Arc<str>>>,
    /// A named tuple (`interp/named_tuple.rs`): its instances are the tuples of their
    /// `fields`.
    pub tuple: bool,
}

#[derive(Clone)]
enum ModStatus {
    NotRun,
    Running,
    Done(Arc<state::Env>),
}

#[derive(Clone)]
struct ModInfo<'a> {
    src: SourceModule<'a>,
    status: ModStatus,
    /// Its top-level code never finishes (it ends in `raise`, like a script kept from being
    /// imported): the globals its functions see are unknown, not empty.
    raised: bool,
}

pub(crate) type MemoKey = (u32, Vec<Value>);

#[derive(Clone)]
struct MemoEntry {
    globals_in: std::sync::Weak<state::Env>,
    heap_in: std::sync::Weak<state::Heap>,
    ret: Value,
}

/// The interpreter.
#[derive(Clone)]
pub struct Interp<'a> {
    modules: Vec<ModInfo<'a>>,
    funcs: Vec<Arc<FuncDef<'a>>>,
    /// Functions by (module, `def` offset, context). A `def` nested in a function makes one
    /// instance per context of that function's frame (its call site and unrolled iteration, as
    /// heap addresses are): Python makes a new function object with the new frame's cells at
    /// each run of the `def`, so `collect` defined in two calls of `leaves()` appends to each
    /// call's own `result`, not to the join of both. Other `def`s have context 0.
    func_index: FxMap<(u32, u32, u32, u32), u32>,
    classes: Vec<Arc<ClassDef>>,
    class_index: FxMap<(u32, u32), u32>,
    pub(crate) findings: FxMap<(u32, u32, &'static str), Finding>,
    fuel: u64,
    pub(crate) config: Config,
    pub out_of_fuel: bool,
    /// The module whose code is running.
    cur_module: u32,
    /// The function whose body is running (`None` at module level).
    cur_func: Option<u32>,
    stack: Vec<u32>,
    /// Offset of the innermost call site (the call-string component of heap addresses).
    call_site: u32,
    /// The innermost call's identity: its site's offset, module and calling function instance
    /// (one per frame of a function defined in another's body — see `define_function`).
    pub(crate) call_ctx: u32,
    /// The iterations of the unrolled loops being run (see [`value::Addr`]).
    iter_salt: u32,
    catches: Vec<Catch>,
    memo: FxMap<MemoKey, Vec<MemoEntry>>,
    /// The functions `memo` holds calls of: a redefinition forgets its calls (see
    /// `define_function`) without scanning the whole memo for every `def` run.
    memo_funcs: FxSet<u32>,
    /// Calls from a function nobody calls into another module that ran out of their budget
    /// (`FOREIGN_CALL_FUEL`), by function and arguments: the same call again is not run (see
    /// `call_function`).
    cut_calls: FxSet<MemoKey>,
    /// What the shared run of the imports remembered ([`Interp::prime`]): read by every fork,
    /// copied by none.
    memo_base: Arc<FxMap<MemoKey, Vec<MemoEntry>>>,
    /// Per module, computed when it first runs.
    module_scopes: Vec<Option<Arc<scope::Scope>>>,
    /// The heap an imported module's code left (its module-level lists, class attributes that
    /// are lists, instances it made): merged into the importer's state by the import.
    module_heaps: Vec<Option<Arc<state::Heap>>>,
    /// Module index by dotted name.
    module_index: Arc<FxMap<String, u32>>,
    sym_counter: u32,
    /// Depth of class bodies being run (methods defined there capture no closure).
    pub(crate) class_body: u32,
    /// The running function's module globals are not known (see `call_function`).
    pub(crate) blind_globals: bool,
    /// The globals of modules whose code is suspended in a call into another module (innermost
    /// last): a module still running (the entry, at module level) has no finished globals, and
    /// a function of it called back from the other module (a decorator's wrapper calling the
    /// decorated function) reads these.
    pub(crate) suspended: Vec<(u32, Arc<state::Env>, bool)>,
    /// Functions a decorator of the program returned in place of the one it decorates (a
    /// wrapper): see `call_function`.
    pub(crate) wrappers: state::FxSet<u32>,
    /// The lambdas made so far (`Value::Lambda` indexes them; `interp/lambda.rs`).
    pub(crate) lambdas: Vec<lambda::LambdaDef<'a>>,
    /// Lambda calls in progress.
    pub(crate) lambda_depth: u32,
    /// The last lambda made from each `lambda` expression (by its address): reused when made
    /// again from an equal frame.
    pub(crate) lambda_ids: state::FxMap<usize, u32>,
    /// While a class body runs: the function the class is defined in, if any.
    pub(crate) class_outer_func: Option<u32>,
    /// Depth of branches whose condition the analysis cannot decide.
    pub(crate) undecided: u32,
    /// Depth of `except` handlers being run whose `try` body may have ended normally (nothing
    /// in it raised for certain): see `interp/handler_reach.rs`.
    pub(crate) in_handler: u32,
    /// Depth of block remainders reached only past an undecided `if` that returned or raised
    /// (`if isinstance(t, tuple): return ...` then code for the other case).
    pub(crate) after_guard: u32,
    /// Certain errors raised inside a `try` and caught by its handlers (the body's normal end,
    /// and its `else:`, may then never run).
    pub(crate) caught_certain: u32,
    /// Certain errors raised so far (reported or caught), under any condition: an expression
    /// that raised for certain whenever it runs stops the evaluation of what follows it (the rest
    /// of an `and`/`or` chain).
    pub(crate) certain_raises: u32,
    /// The statement being executed raised for certain (a certain finding, reported or caught):
    /// Python stops there, and so does this path.
    pub(crate) raised: bool,
    /// Depth of expression parts evaluated only under an undecided condition (`a if c else b`,
    /// the right side of `and`/`or`): an error there does not stop the whole statement.
    pub(crate) cond_expr: u32,
    /// `undecided + after_guard` when the analysis went from the entry's code into an imported
    /// module's: a finding above it lies under a condition of that module's code that the
    /// analysis could not decide.
    pub(crate) frame_base: u32,
    /// The operands of the library operation running now: (its range, shapes, operator), read
    /// by `report` for the finding's message.
    pub(crate) pending: Option<(TextRange, Vec<crate::Shape>, Option<&'static str>)>,
    /// The user-function calls running now, outermost first.
    pub(crate) chain: Vec<(u32, TextRange)>,
    /// Where arrays were bound (see [`Origin`]).
    pub origins: Vec<Origin>,
    /// The product of the iteration counts of the `for` loops being unrolled around the code
    /// that runs now: nested loops are unrolled only while it stays under [`MAX_NESTED_UNROLL`].
    pub(crate) unrolled: i64,
    /// Shapes of the entry module's array-valued names (see [`RunOutput`]).
    /// Shapes of names for the hover: (a torch tensor, not a NumPy array; the shape).
    pub(crate) types: FxMap<TextRange, (bool, crate::Shape)>,
    pub(crate) unknown: FxMap<TextRange, String>,
    /// What the entry module's expressions evaluated to, for `--statistics`.
    pub(crate) coverage: coverage::Coverage,
    /// Running the shared imports ([`Interp::prime`]).
    priming: bool,
    /// Analysing a function nobody calls ([`Interp::analyse_uncalled`]): its calls into other
    /// modules run on budgets of their own ([`FOREIGN_CALL_FUEL`]).
    pub(crate) uncalled: bool,
}

/// Nested calls deeper than this return an unknown value.
const MAX_CALL_DEPTH: usize = 256;
/// Known `for` loops up to this many iterations are unrolled exactly.
const MAX_UNROLL: i64 = 64;
/// ... as long as all the loops unrolled around them run their bodies at most this many times
/// together: a triple loop over a 48³ volume (110,592 runs of its body, 0.6 s in scikit-image's
/// tests) is summarised from its second level on, as a loop of unknown length is.
const MAX_NESTED_UNROLL: i64 = 1024;
/// Steps an imported module's body may take (its definitions come first; the rest is cut).
const IMPORT_FUEL: u64 = 20_000;
/// Passes of a loop body before widening.
const JOIN_PASSES: usize = 2;
/// Steps a call may take from a function of the entry that nobody calls (a test function, run
/// with unknown arguments) into another module's code: past them the call's result is unknown
/// and the entry's analysis goes on. Without it, one test that drives a deep library routine
/// (a FITS writer, a time-scale conversion) spends the whole file's budget, and the file's
/// other functions are never analysed. The entry's own code, and calls made from its
/// module-level code (a driver building a model), are not bounded this way. At 3,000 steps
/// (10,000 before) the real-package sweep finds the same errors and its recall is unchanged,
/// and a package's test files run 20% faster (`bench/shapes_packages.py`).
const FOREIGN_CALL_FUEL: u64 = 3_000;

impl<'a> Interp<'a> {
    pub fn new(modules: Vec<SourceModule<'a>>, config: &Config) -> Interp<'a> {
        let module_scopes = vec![None; modules.len()];
        let module_index = modules
            .iter()
            .enumerate()
            .map(|(i, m)| (m.name.clone(), i as u32))
            .collect();
        Interp {
            modules: modules
                .into_iter()
                .map(|src| ModInfo {
                    src,
                    status: ModStatus::NotRun,
                    raised: false,
                })
                .collect(),
            funcs: Vec::new(),
            func_index: FxMap::default(),
            classes: Vec::new(),
            class_index: FxMap::default(),
            findings: FxMap::default(),
            fuel: config.fuel,
            config: config.clone(),
            out_of_fuel: false,
            cur_module: 0,
            cur_func: None,
            stack: Vec::new(),
            call_site: 0,
            call_ctx: 0,
            iter_salt: 0,
            catches: Vec::new(),
            memo: FxMap::default(),
            memo_funcs: FxSet::default(),
            cut_calls: FxSet::default(),
            memo_base: Arc::default(),
            module_heaps: vec![None; module_scopes.len()],
            module_scopes,
            module_index: Arc::new(module_index),
            sym_counter: 0,
            class_body: 0,
            blind_globals: false,
            suspended: Vec::new(),
            wrappers: Default::default(),
            lambdas: Vec::new(),
            lambda_depth: 0,
            lambda_ids: Default::default(),
            class_outer_func: None,
            undecided: 0,
            in_handler: 0,
            after_guard: 0,
            caught_certain: 0,
            certain_raises: 0,
            raised: false,
            cond_expr: 0,
            frame_base: 0,
            pending: None,
            chain: Vec::new(),
            origins: Vec::new(),
            types: FxMap::default(),
            unknown: FxMap::default(),
            coverage: coverage::Coverage::default(),
            unrolled: 1,
            priming: false,
            uncalled: false,
        }
    }

    /// Run module `entry` as `__main__`, then every function and method it never called (with
    /// unknown arguments, or their hints), and return the findings in source order.
    pub fn run(mut self, entry: u32) -> RunOutput {
        let globals = self.run_module(entry);
        let globals = self.run_module_setup(entry, globals);
        // Functions never called: analyse them with unknown (or hinted) arguments.
        let mut i = 0;
        let mut libraries = None;
        while i < self.funcs.len() && !self.out_of_fuel {
            // Only the functions of reported modules: the others are libraries of the entry.
            let reported = self.modules[self.funcs[i].module as usize].src.report;
            // One instance of each `def` (its first): the others are the same code.
            if !self.funcs[i].analysed && reported && self.funcs[i].canonical == i as u32 {
                let module = self.funcs[i].module;
                let g = match &self.modules[module as usize].status {
                    ModStatus::Done(g) => g.clone(),
                    _ => globals.clone(),
                };
                let mut st = State::new();
                st.globals = g;
                st.heap = self.library_heap(module, &mut libraries);
                self.blind_globals = self.modules[module as usize].raised;
                self.analyse_uncalled(i as u32, st);
                self.blind_globals = false;
            }
            i += 1;
        }
        // Every module's findings: the caller reports the entry's, and the certain ones
        // reached inside imported modules at their own file and line.
        let mut out: Vec<Finding> = self.findings.into_values().collect();
        out.sort_by_key(|f| (f.module, f.range.start(), f.code));
        RunOutput {
            findings: out,
            out_of_fuel: self.out_of_fuel,
            origins: self.origins,
            types: self.types,
            unknown: self.unknown,
            coverage: self.coverage.summary(),
        }
    }

    /// Run the bodies of modules `ms` as imports do, each on its own budget ([`IMPORT_FUEL`]),
    /// so that every entry [`fork`](Self::fork)ed from this interpreter finds them run: a whole
    /// package checked file by file runs each imported module's body once, not once per file
    /// that imports it. Slot 0 (the entry's) stays empty. The findings made here are dropped:
    /// each module reports its own when it is checked as an entry, where the same body runs.
    pub fn prime(&mut self, ms: impl IntoIterator<Item = u32>) {
        for m in ms {
            if m == 0 || !matches!(self.modules[m as usize].status, ModStatus::NotRun) {
                continue;
            }
            if self
                .config
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                break;
            }
            self.fuel = IMPORT_FUEL;
            self.out_of_fuel = false;
            self.priming = true;
            self.run_imported(m);
            self.priming = false;
        }
        self.fuel = 0;
        self.out_of_fuel = false;
        // Not `clear()`: every fork clones this map, and a cleared map keeps its capacity.
        self.findings = FxMap::default();
        // What a fork keeps of the coverage (the causes met): the rest would be copied by every
        // fork and thrown away.
        self.coverage = self.coverage.for_entry();
        let remembered = std::mem::take(&mut self.memo);
        self.memo_funcs = FxSet::default();
        let base = Arc::make_mut(&mut self.memo_base);
        for (k, v) in remembered {
            base.entry(k).or_default().extend(v);
        }
    }

    /// Mark a function analysed (or not): its definition is copied only if a fork shares it
    /// and the mark changes.
    pub(crate) fn mark_analysed(&mut self, id: u32, analysed: bool) {
        let f = &mut self.funcs[id as usize];
        if f.analysed != analysed {
            Arc::make_mut(f).analysed = analysed;
        }
    }

    /// An interpreter for `entry` (slot 0, run as `__main__`) that starts where this one
    /// ([`prime`](Self::prime)d) stopped: the imported modules already run, their functions,
    /// classes and heaps shared; a fresh budget and coverage of its own. A module the prime did
    /// not reach is run on first import, as in a fresh interpreter.
    pub fn fork(&self, entry: SourceModule<'a>, config: &Config) -> Interp<'a> {
        let mut i = self.clone();
        i.modules[0] = ModInfo {
            src: entry,
            status: ModStatus::NotRun,
            raised: false,
        };
        i.module_scopes[0] = None;
        i.module_heaps[0] = None;
        i.fuel = config.fuel;
        i.config = config.clone();
        i.out_of_fuel = false;
        i.findings.clear();
        i.cut_calls.clear();
        // Reduced to what an entry starts from by `prime`.
        i.coverage.origin = None;
        i.types.clear();
        i.unknown.clear();
        i
    }

    /// Run an imported module's body on a budget of its own ([`IMPORT_FUEL`]); running out of it
    /// stops only that module (its names defined so far are kept), not the entry's analysis.
    pub(crate) fn run_imported(&mut self, m: u32) {
        if self.out_of_fuel {
            return;
        }
        if self.priming {
            // Each module on its own budget, nested or not: what a module defines does not
            // depend on the order the shared run met it in.
            let saved = std::mem::replace(&mut self.fuel, IMPORT_FUEL);
            self.run_module(m);
            self.fuel = saved;
            self.out_of_fuel = saved == 0;
            return;
        }
        let total = self.fuel;
        self.fuel = total.min(IMPORT_FUEL);
        let granted = self.fuel;
        let saved_base = self.frame_base;
        if self.cur_module == 0 {
            self.frame_base = self.undecided + self.after_guard;
        }
        self.run_module(m);
        self.frame_base = saved_base;
        let used = granted - self.fuel;
        self.fuel = total - used;
        self.out_of_fuel = self.fuel == 0;
    }

    fn run_module(&mut self, m: u32) -> Arc<state::Env> {
        self.modules[m as usize].status = ModStatus::Running;
        let saved = (self.cur_module, self.cur_func.take());
        self.cur_module = m;
        let mut st = State::new();
        let name: Arc<str> = if m == 0 {
            "__main__".into()
        } else {
            self.modules[m as usize].src.name.as_str().into()
        };
        Arc::make_mut(&mut st.globals).insert(
            "__name__".into(),
            state::Binding {
                value: Value::Str(Some(name)),
                maybe_unbound: false,
            },
        );
        let suite = self.modules[m as usize].src.suite;
        if self.module_scopes[m as usize].is_none() {
            self.module_scopes[m as usize] = Some(Arc::new(scope::Scope::of_module(suite)));
        }
        let out = self.exec_block(suite, st);
        self.modules[m as usize].raised = out.normal.is_none();
        if let Some(s) = &out.normal {
            self.module_heaps[m as usize] = Some(s.heap.clone());
        }
        let globals = out
            .normal
            .map(|s| s.globals)
            .unwrap_or_else(|| Arc::new(state::Env::default()));
        self.modules[m as usize].status = ModStatus::Done(globals.clone());
        self.cur_module = saved.0;
        self.cur_func = saved.1;
        globals
    }

    /// The index of a module of the program by dotted name.
    pub(crate) fn module_named(&self, name: &str) -> Option<u32> {
        self.module_index.get(name).copied()
    }

    /// Function `id`'s definition, and the class it is a method of.
    pub(crate) fn func_def(&self, id: u32) -> (&'a ruff_python_ast::StmtFunctionDef, Option<u32>) {
        let f = &self.funcs[id as usize];
        (f.def, f.class)
    }

    /// The bases of program class `class`, as evaluated.
    pub(crate) fn class_bases(&self, class: u32) -> &[Value] {
        &self.classes[class as usize].bases
    }

    /// Was program class `class` made by a metaclass of the program (see [`ClassDef::meta`])?
    pub(crate) fn class_is_meta(&self, class: u32) -> bool {
        self.classes[class as usize].meta
    }

    /// Spend one unit of fuel; false when the budget is exhausted.
    fn tick(&mut self) -> bool {
        if self.fuel == 0 {
            self.out_of_fuel = true;
            return false;
        }
        self.fuel -= 1;
        // Every 256 steps, whether someone asked the analysis to stop or its time is up.
        if self.fuel.is_multiple_of(256)
            && (self
                .config
                .stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
                || self
                    .config
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d))
        {
            self.fuel = 0;
            self.out_of_fuel = true;
            return false;
        }
        true
    }

    fn fresh_sym(&mut self, base: &str) -> Arc<str> {
        self.sym_counter += 1;
        // The suffix after `#` keeps symbols from different definitions apart; it is not printed.
        format!("{base}#{}", self.sym_counter).into()
    }

    /// Record a finding at `range` unless an enclosing `try` catches it or the same site
    /// already has it (a certain finding replaces a possible one).
    pub(crate) fn report(
        &mut self,
        range: TextRange,
        code: &'static str,
        exc: Exc,
        message: String,
        certainty: Certainty,
    ) {
        // The statement already raised for certain: Python never evaluates the rest of it
        // (`f(a_undefined, b_undefined)` raises one NameError).
        if self.raised && self.cond_expr == 0 && exc != Exc::Hint {
            return;
        }
        if self.catches.iter().any(|c| match c {
            Catch::All => true,
            Catch::Names(n) => n.iter().any(|n| exc.caught_by(n)),
        }) {
            if certainty == Certainty::Certain {
                self.caught_certain += 1;
                self.certain_raises += 1;
                self.raised |= self.cond_expr == 0;
            }
            return;
        }
        // Under a condition the analysis cannot decide, an error about None or an unbound
        // local is almost always guarded by a related condition it cannot connect (`y.size` in
        // `n if n is not None else y.size`, where callers pass `y=None` only with `n`): such a
        // finding is possible, not certain. So is an index past the end of a list, whose
        // length such conditions test (`if len(stack) <= 1 and tok != END: continue` makes
        // `stack.pop(); stack[-1]` below safe, through a correlation the analysis does not see).
        // And a division by zero, whose divisor such a condition keeps from being zero (a loop
        // over the axes that breaks before `1.0 / (ndim - dim - 1)` reaches the last one).
        let certainty = if (self.undecided > 0 || self.after_guard > 0)
            && certainty == Certainty::Certain
            && (message.contains("NoneType")
                || message.starts_with("cannot access local variable")
                || message == "list index out of range"
                || message.ends_with("by zero"))
        {
            Certainty::Possible("on a path whose condition the analysis cannot decide".into())
        } else {
            self.in_handler_certainty(certainty, exc)
        };
        if certainty == Certainty::Certain && exc != Exc::Hint {
            self.certain_raises += 1;
            self.raised |= self.cond_expr == 0;
        }
        let key = (self.cur_module, u32::from(range.start()), code);
        let (operands, op) = match self.pending.take() {
            Some((r, shapes, op)) if r == range => (shapes, op),
            _ => (Vec::new(), None),
        };
        let finding = Finding {
            operands,
            op,
            chain: self.chain.clone(),
            module: self.cur_module,
            range,
            code,
            message: if exc == Exc::Hint {
                message
            } else {
                format!("{}: {message}", exc.name())
            },
            certainty,
            guarded: self.undecided + self.after_guard > self.frame_base,
        };
        match self.findings.get(&key) {
            Some(old) if old.certainty == Certainty::Certain => {}
            Some(_) if finding.certainty != Certainty::Certain => {}
            _ => {
                self.findings.insert(key, finding);
            }
        }
    }

    /// Remember that `target` (a name or attribute) was bound to an array of `shape` by `stmt`.
    pub(crate) fn record_origin(
        &mut self,
        target: TextRange,
        stmt: TextRange,
        shape: &crate::Shape,
    ) {
        if self.origins.len() >= MAX_ORIGINS {
            return;
        }
        self.origins.push(Origin {
            module: self.cur_module,
            target,
            stmt,
            shape: shape.clone(),
            chain: self.chain.clone(),
        });
    }

    /// For the hover: remember the shape `v` has at `range` (a name of the entry module).
    pub(crate) fn record_type(&mut self, range: TextRange, v: &Value) {
        if !self.config.collect_types || self.cur_module != 0 {
            return;
        }
        // Arrays and tensors alike (a name is one or the other; a join of both keeps the first).
        let (tensor, s) = match v {
            Value::Array(s) => (false, s),
            Value::Tensor(s) => (true, s),
            _ => return,
        };
        self.unknown.remove(&range);
        self.types
            .entry(range)
            .and_modify(|old| old.1 = old.1.join(s))
            .or_insert_with(|| (tensor, s.clone()));
    }

    /// For the hover: the name at `range` is unknown, traced to cause `origin`.
    pub(crate) fn record_unknown(&mut self, range: TextRange, origin: Option<u32>) {
        if !self.config.collect_types || self.cur_module != 0 || self.types.contains_key(&range) {
            return;
        }
        if let Some(o) = origin {
            let name = self.coverage.cause_name(o).to_owned();
            self.unknown.insert(range, name);
        }
    }

    /// Report a model's error (if any) and return its result shape as a value.
    pub(crate) fn outcome(&mut self, range: TextRange, o: crate::Outcome) -> Value {
        if let Some(e) = o.error {
            let exc = match e.code {
                "W510" => Exc::Index,
                "W507" => Exc::Axis,
                "W513" => Exc::LinAlg,
                "W515" => Exc::Type,
                _ => Exc::Value,
            };
            self.report(range, e.code, exc, e.message, e.certainty);
        }
        Value::Array(o.shape)
    }
}

#[cfg(test)]
mod shared_run_tests {
    use super::*;
    use ranklift_python::parse::ParsedModule;
    use ranklift_python::source::SourceFile;

    fn parse(text: &str) -> ParsedModule {
        let file = SourceFile::from_bytes(std::path::Path::new("m.py"), text.as_bytes()).unwrap();
        ParsedModule::parse(file, "m.py").unwrap()
    }

    fn module<'a>(name: &str, m: &'a ParsedModule, report: bool) -> SourceModule<'a> {
        SourceModule {
            name: name.into(),
            suite: m.suite(),
            report,
            is_package: false,
        }
    }

    fn globals_of(i: &Interp, m: usize) -> Option<Arc<state::Env>> {
        match &i.modules[m].status {
            ModStatus::Done(g) => Some(g.clone()),
            _ => None,
        }
    }

    #[test]
    fn forks_start_from_the_primed_modules_without_running_them_again() {
        let lib = parse("import numpy as np\n\nW = np.ones((3, 2))\n");
        let entry = parse("import numpy as np\nimport lib\n\nY = np.ones((5, 4)) @ lib.W\n");
        let placeholder = parse("");
        let mut base = Interp::new(
            vec![
                module("__main__", &placeholder, false),
                module("lib", &lib, false),
            ],
            &Config::default(),
        );
        base.prime([1]);
        let primed = globals_of(&base, 1).expect("lib ran in the shared run");
        let mut fork = base.fork(module("main", &entry, true), &Config::default());
        let before = fork.fuel;
        fork.run_module(0);
        // The entry found `lib` run: its globals are the shared run's, not a second run's.
        assert!(Arc::ptr_eq(&primed, &globals_of(&fork, 1).unwrap()));
        // The entry's mismatch is its own finding, on its own budget.
        assert!(
            fork.findings
                .values()
                .any(|f| f.module == 0 && f.code == "W504")
        );
        assert!(before == Config::default().fuel && fork.fuel < before);
        // And the base is untouched by what the fork did.
        assert!(base.findings.is_empty());
        assert!(matches!(base.modules[0].status, ModStatus::NotRun));
    }
}
