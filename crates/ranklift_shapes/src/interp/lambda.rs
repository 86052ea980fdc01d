//! Language model: `lambda` expressions, run when called.
//!
//! **Trigger:** a `lambda` evaluated (`self.mlpf = lambda x: m.c_proj(m.act(m.c_fc(x)))`,
//! `act=lambda x: x`), then called.
//!
//! **Result:** the lambda is a function value; a call binds its positional and keyword
//! parameters (defaults evaluated where the lambda was made) and evaluates its body in the
//! module it was written in, with the variables of the frame that made it, as Python's
//! closure would read them then. A lambda with `*args`/`**kwargs`, a call it cannot bind, or
//! calls nested past [`MAX_DEPTH`] are unknown.
//!
//! **Why:** GPT-style blocks run their MLP through a lambda stored on the module, and layers
//! take their activation as one (`act=lambda x: x`); unknown, everything after the first block
//! was unknown and no layer of the model was checked.
//!
//! ```python
//! m = nn.ModuleDict(dict(c_fc=nn.Linear(16, 64), c_proj=nn.Linear(64, 16)))
//! mlpf = lambda x: m.c_proj(torch.relu(m.c_fc(x)))
//! y = mlpf(torch.randn(2, 16))   # (2, 16)
//! ```
use std::sync::Arc;

use ruff_python_ast as ast;
use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::{Binding, Env, State};
use super::value::Value;

/// Lambda calls nested deeper than this are unknown (a lambda calling itself).
const MAX_DEPTH: u32 = 16;

/// A lambda as made: its expression, the module it is in, the frame variables it sees and its
/// parameters' defaults (in order, `None` for none).
#[derive(Clone)]
pub(crate) struct LambdaDef<'a> {
    pub expr: &'a ast::ExprLambda,
    pub module: u32,
    pub closure: Option<Arc<Env>>,
    pub defaults: Vec<Option<Value>>,
}

impl<'a> Interp<'a> {
    /// The value of `lambda` expression `l` (see the module doc).
    pub(crate) fn make_lambda(&mut self, l: &'a ast::ExprLambda, st: &mut State) -> Value {
        let simple = l
            .parameters
            .as_ref()
            .is_none_or(|p| p.vararg.is_none() && p.kwarg.is_none() && p.posonlyargs.is_empty());
        if !simple {
            return Value::Top;
        }
        let mut defaults = Vec::new();
        if let Some(p) = &l.parameters {
            for a in p.args.iter().chain(&p.kwonlyargs) {
                defaults.push(a.default.as_ref().map(|d| self.eval(d, st)));
            }
        }
        // The frame's variables, over those the enclosing function itself closes over.
        let outer = self
            .cur_func
            .and_then(|f| self.funcs.get(f as usize))
            .and_then(|f| f.closure.clone());
        let closure = match (outer, &st.locals) {
            (Some(o), Some(l)) => {
                let mut env = (*o).clone();
                env.extend(l.iter().map(|(k, b)| (k.clone(), b.clone())));
                Some(Arc::new(env))
            }
            (o, l) => l.clone().or(o),
        };
        // The same lambda made again from the same frame (a loop's passes, a branch's two
        // arms) is the same value: one entry, and joins keep it.
        let key = std::ptr::from_ref(l) as usize;
        if let Some(&id) = self.lambda_ids.get(&key) {
            let same = &self.lambdas[id as usize];
            let frame_same = match (&same.closure, &closure) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
                (None, None) => true,
                _ => false,
            };
            if frame_same && same.defaults == defaults {
                return Value::Lambda(id);
            }
        }
        self.lambdas.push(LambdaDef {
            expr: l,
            module: self.cur_module,
            closure,
            defaults,
        });
        let id = self.lambdas.len() as u32 - 1;
        self.lambda_ids.insert(key, id);
        Value::Lambda(id)
    }

    /// A call of lambda `id` (see the module doc).
    pub(crate) fn call_lambda(
        &mut self,
        id: u32,
        args: &Args,
        _range: TextRange,
        st: &mut State,
    ) -> Value {
        let Some(def) = self.lambdas.get(id as usize).cloned() else {
            return Value::Top;
        };
        if args.unknown || self.lambda_depth >= MAX_DEPTH || !self.tick() {
            return Value::Top;
        }
        let params: Vec<&ast::ParameterWithDefault> = def
            .expr
            .parameters
            .as_ref()
            .map(|p| p.args.iter().chain(&p.kwonlyargs).collect())
            .unwrap_or_default();
        let positional = def.expr.parameters.as_ref().map_or(0, |p| p.args.len());
        if args.pos.len() > positional
            || args
                .kw
                .iter()
                .any(|(k, _)| !params.iter().any(|p| p.parameter.name.as_str() == &**k))
        {
            return Value::Top;
        }
        let mut locals: Env = def.closure.as_deref().cloned().unwrap_or_default();
        for (i, p) in params.iter().enumerate() {
            let name = p.parameter.name.as_str();
            let given = if i < positional {
                args.pos.get(i)
            } else {
                None
            }
            .or_else(|| args.kw.iter().find(|(k, _)| &**k == name).map(|(_, v)| v));
            let Some(value) = given.cloned().or_else(|| def.defaults[i].clone()) else {
                return Value::Top;
            };
            locals.insert(
                name.into(),
                Binding {
                    value,
                    maybe_unbound: false,
                },
            );
        }
        let Some(globals) = self.globals_of_module(def.module, st) else {
            return Value::Top;
        };
        let mut frame = State {
            globals,
            locals: Some(Arc::new(locals)),
            heap: st.heap.clone(),
        };
        let saved = self.cur_module;
        self.cur_module = def.module;
        self.lambda_depth += 1;
        // A name the captured frame lacks may be bound by then (closures read their cells
        // when called, and an enclosing function's own closure is not captured here): unknown,
        // never a NameError.
        let blind = std::mem::replace(&mut self.blind_globals, true);
        let out = self.eval(&def.expr.body, &mut frame);
        self.blind_globals = blind;
        self.lambda_depth -= 1;
        self.cur_module = saved;
        st.heap = frame.heap;
        if def.module == saved {
            st.globals = frame.globals;
        }
        out
    }
}
