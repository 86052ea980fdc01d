//! Rule `rank_seeded_draws`: random batches drawn in the training loop differ between processes.
//!
//! **Trigger:** a training loop (or a project function it calls, or a project generator whose
//! call feeds `fit` / `fit_generator`) draws at random — `rng.integers`,
//! `rng.choice`, `np.random.randint`, `random.sample`, `np.random.permutation`, ... — from a
//! generator seeded with a value: `rng = np.random.default_rng(SEED)` (or `RandomState(SEED)`,
//! `random.Random(SEED)`), or the global `np.random.seed(SEED)` / `random.seed(SEED)`.
//!
//! **Rewrite:** the seed becomes `SEED + hvd.rank()`: rank 0 keeps the program's seed (one
//! process runs exactly as before), every other rank draws its own stream.
//!
//! **Why:** with the same seed every process draws the same indices, trains on the same batch at
//! every step and averages identical gradients: the divided step count makes the run shorter,
//! but it has trained on 1/N of the batches the single process did. Independent draws per rank
//! are what N processes sampling with replacement should do (the end-to-end probe checks that
//! the ranks' batches differ). Data the same generator made before the loop then differs per
//! rank as well, as it would in a program that did not fix a seed; the broadcast of rank 0's
//! weights and the averaged gradients keep the model one model.
//!
//! ```python
//! # before
//! rng = np.random.default_rng(31)
//! for step in range(200):
//!     idx = rng.integers(0, len(x_data), size=50)
//! # after
//! rng = np.random.default_rng(31 + hvd.rank())
//! for step in range(200 // hvd.size()):
//!     idx = rng.integers(0, len(x_data), size=50)
//! ```
use std::collections::BTreeSet;

use ruff_python_ast::{Expr, ExprCall, Stmt};
use ruff_text_size::Ranged;

use crate::index::{Callee, Scope};
use crate::tf::context::Cx;

const RULE: &str = "rank_seeded_draws";

/// Methods of a generator (and functions of `numpy.random` / `random`) that draw.
const DRAWS: &[&str] = &[
    "integers",
    "randint",
    "random_integers",
    "choice",
    "choices",
    "sample",
    "permutation",
    "shuffle",
    "permuted",
    "random",
    "random_sample",
    "rand",
    "randn",
    "normal",
    "uniform",
];

/// Generator constructors whose first argument is the seed.
const GENERATORS: &[&str] = &[
    "numpy.random.default_rng",
    "numpy.random.RandomState",
    "numpy.random.Generator",
    "random.Random",
];

/// Global seeding functions, by the module whose functions draw (Keras's `set_random_seed` seeds
/// Python's, NumPy's and TensorFlow's generators at once).
const GLOBAL_SEEDS: &[(&str, &str)] = &[
    ("numpy.random.", "numpy.random.seed"),
    ("numpy.random.", "tensorflow.keras.utils.set_random_seed"),
    ("random.", "random.seed"),
    ("random.", "tensorflow.keras.utils.set_random_seed"),
];

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let loops = super::shard_training_steps::training_loops(cx);
    // The scopes whose calls count: each loop's body, and project functions called there; and
    // a project generator whose call is `fit`'s input (`model.fit_generator(batches(), ...)`):
    // its body draws the batches while `fit` trains.
    let mut draws: Vec<(Scope, &ExprCall)> = Vec::new();
    let mut helpers: BTreeSet<usize> = BTreeSet::new();
    for &fc in &cx.reach.fits {
        let c = &idx.calls[fc];
        let x = c
            .call
            .arguments
            .find_keyword("x")
            .or_else(|| c.call.arguments.find_keyword("generator"))
            .map(|k| &k.value)
            .or(c.call.arguments.args.first());
        if let Some(Expr::Call(g)) = x
            && let Some(Callee::Func(f)) = idx.resolve_call(c.scope, g)
        {
            helpers.insert(f);
        }
    }
    if loops.is_empty() && helpers.is_empty() {
        return;
    }
    for c in &idx.calls {
        // The loop's header (its iterable) runs once: a dataset built there is not drawn from
        // at every step.
        if loops
            .iter()
            .any(|&l| c.stmt != l && crate::editor::within(idx, c.stmt, l))
        {
            draws.push((c.scope, c.call));
            if let Some(Callee::Func(f)) = idx.resolve_call(c.scope, c.call) {
                helpers.insert(f);
            }
        }
    }
    for c in &idx.calls {
        if c.scope.func.is_some_and(|f| helpers.contains(&f)) {
            draws.push((c.scope, c.call));
        }
    }
    let mut seeds: Vec<(Scope, &Expr)> = Vec::new();
    let mut globals: BTreeSet<&str> = BTreeSet::new();
    for (scope, call) in draws {
        let Expr::Attribute(a) = &*call.func else {
            continue;
        };
        if !DRAWS.contains(&a.attr.as_str()) {
            continue;
        }
        if let Some(q) = idx.canonical(scope.module, &call.func) {
            let mut global = false;
            for &(prefix, seed_fn) in GLOBAL_SEEDS {
                if q.starts_with(prefix) && !q[prefix.len()..].contains('.') {
                    globals.insert(seed_fn);
                    global = true;
                }
            }
            if global {
                continue;
            }
        }
        let Expr::Name(n) = &*a.value else { continue };
        let (s, values) = idx.assignments(scope, n.id.as_str());
        if let [Expr::Call(ctor)] = values.as_slice()
            && idx
                .canonical(s.module, &ctor.func)
                .is_some_and(|q| GENERATORS.contains(&&*q))
            && let Some(seed) = ctor.arguments.args.first()
            && !matches!(seed, Expr::NoneLiteral(_))
            && !seeds
                .iter()
                .any(|&(sc, e)| sc.module == s.module && e.range() == seed.range())
        {
            seeds.push((s, seed));
        }
    }
    for c in &idx.calls {
        if !cx.reach.scope_reached(c.scope) {
            continue;
        }
        let Some(q) = idx.canonical(c.scope.module, &c.call.func) else {
            continue;
        };
        if globals.contains(&*q)
            && let Some(seed) = c.call.arguments.args.first()
            && !matches!(seed, Expr::NoneLiteral(_))
            && matches!(idx.stmts[c.stmt].stmt, Stmt::Expr(_))
            && !seeds
                .iter()
                .any(|&(sc, e)| sc.module == c.scope.module && e.range() == seed.range())
        {
            seeds.push((c.scope, seed));
        }
    }
    for (scope, seed) in seeds {
        let m = scope.module;
        let text = cx.text(m, seed).to_owned();
        cx.suffix(m, RULE, seed, "+ hvd.rank()");
        cx.note(
            m,
            RULE,
            seed.start(),
            format!(
                "seed `{text}` + hvd.rank(): the training loop draws its batches from this generator, and with one seed every process would draw the same batches (rank 0 keeps the seed)"
            ),
        );
        cx.use_hvd(scope);
    }
}
