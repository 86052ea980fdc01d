//! Calls: user functions (context-sensitive, memoised, recursion cut), classes and methods,
//! Python builtins, list methods, and the dispatch to the NumPy models.

use std::sync::Arc;

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};

use super::state::{Binding, Env, Obj, State};
use super::value::{Addr, Builtin, Int, Seq, Value};
use super::{Exc, Interp, MAX_CALL_DEPTH, MemoEntry};
use crate::Certainty;

mod builtins;

/// Evaluated call arguments.
#[derive(Debug, Default, Clone)]
pub struct Args {
    pub pos: Vec<Value>,
    pub kw: Vec<(Arc<str>, Value)>,
    /// A `*args` or `**kwargs` of unknown contents was passed.
    pub unknown: bool,
}

impl Args {
    /// Argument `i` (positional) or `name` (keyword).
    pub fn get(&self, i: usize, name: &str) -> Option<&Value> {
        self.pos
            .get(i)
            .or_else(|| self.kw.iter().find(|(k, _)| &**k == name).map(|(_, v)| v))
    }

    pub fn kw(&self, name: &str) -> Option<&Value> {
        self.kw.iter().find(|(k, _)| &**k == name).map(|(_, v)| v)
    }
}

/// The method kind of a property: `<property>`, or `<property set=ID>` when its setter is the
/// project function `ID` (assignments through the property then run it).
pub(crate) fn property_kind(setter: Option<u32>) -> Arc<str> {
    match setter {
        Some(id) => format!("<property set={id}>").into(),
        None => "<property>".into(),
    }
}

/// Whether a method kind is a property's, and its setter.
pub(crate) fn property_setter(kind: &str) -> Option<Option<u32>> {
    if kind == "<property>" {
        return Some(None);
    }
    let id = kind.strip_prefix("<property set=")?.strip_suffix('>')?;
    Some(id.parse().ok())
}

impl<'a> Interp<'a> {
    pub(crate) fn eval_call(&mut self, c: &'a ast::ExprCall, st: &mut State) -> Value {
        if let Some(v) = self.dict_update(c, st) {
            return v;
        }
        // `obj.method(...)` keeps the receiver: a method the analysis cannot see (one of a
        // library base class, `stump.fit(X, y)` of a scikit-learn estimator) may set any of
        // the receiver's attributes.
        let (f, receiver) = match &*c.func {
            Expr::Attribute(a) => {
                let recv = self.eval(&a.value, st);
                let f = self.attribute_of(&recv, a.attr.as_str(), a.range, st);
                self.note_module_attr(&recv, &f, &c.func);
                (f, Some(recv))
            }
            func => (self.eval(func, st), None),
        };
        // Not so for an `nn.Module`: torch's own methods do not set the program's attributes
        // (those that register one are modelled), and an unknown attribute is a submodule or
        // a missing one (`self.shortcut(out) if hasattr(self, "shortcut") else x`).
        if let (Value::Top, Some(recv @ Value::Instance(addr))) = (&f, &receiver)
            && !self
                .instance_class(st, *addr)
                .is_some_and(|c| self.is_torch_module(c, 0))
        {
            self.escape_value(recv, st);
        }
        let takes_dims = match &f {
            Value::NpFunc(name) => crate::numpy::takes_dims(name),
            Value::Method(recv, name) => matches!(**recv, Value::Array(_)) && &**name == "reshape",
            _ => false,
        };
        if takes_dims {
            // Unknown ints used as array sizes get names, so that `zeros((n, 3))` and
            // `ones((n, 3))` are known to agree.
            for a in c.arguments.args.iter() {
                self.name_unknown_ints(a, false, st);
            }
        }
        let mut args = Args::default();
        for a in c.arguments.args.iter() {
            if let Expr::Starred(s) = a {
                match self.eval(&s.value, st) {
                    Value::Tuple(Seq::Exact(items)) => args.pos.extend(items.iter().cloned()),
                    Value::List(addr) => match st.list(addr) {
                        Some(Seq::Exact(items)) => args.pos.extend(items.iter().cloned()),
                        _ => args.unknown = true,
                    },
                    // `nn.Sequential(*features[:4], head)`: a Sequential's children, in order.
                    Value::Layer(l) => match &*l {
                        crate::torch::layers::Layer::Sequential(children, _) => {
                            args.pos.extend(children.iter().cloned());
                        }
                        crate::torch::layers::Layer::ModuleList(addr) => match st.list(*addr) {
                            Some(Seq::Exact(items)) => args.pos.extend(items.iter().cloned()),
                            _ => args.unknown = true,
                        },
                        _ => args.unknown = true,
                    },
                    _ => args.unknown = true,
                }
            } else {
                let v = self.eval(a, st);
                args.pos.push(v);
            }
        }
        for k in &c.arguments.keywords {
            let v = self.eval(&k.value, st);
            match (&k.arg, v) {
                (Some(name), v) => args.kw.push((name.as_str().into(), v)),
                // A `**kwargs` passed on as it came in.
                (None, Value::Kwargs(items)) => args.kw.extend(items.iter().cloned()),
                // `**config`: a dict of string keys, all known.
                (None, Value::Dict(a)) => match st.dict(a) {
                    Some((items, true))
                        if items.iter().all(|(k, _)| matches!(k, Value::Str(Some(_)))) =>
                    {
                        for (k, v) in items {
                            if let Value::Str(Some(k)) = k {
                                args.kw.push((k, v));
                            }
                        }
                    }
                    _ => args.unknown = true,
                },
                (None, _) => args.unknown = true,
            }
        }
        // A lambda handed to code the analysis does not run may change what it names, now or
        // later (`object_hook=lambda d: params.update(d)`): those values escape.
        if !matches!(
            f,
            Value::Func(_)
                | Value::Class(_)
                | Value::NpFunc(_)
                | Value::TorchFunc(_)
                | Value::Builtin(_)
        ) {
            let lambdas = c
                .arguments
                .args
                .iter()
                .chain(c.arguments.keywords.iter().map(|k| &k.value))
                .filter(|e| matches!(e, Expr::Lambda(_)));
            let mut reached = Vec::new();
            for l in lambdas {
                for name in super::scope::names_read_expr(l) {
                    if let Some(v) = st.lookup_value(&name) {
                        reached.push(v.clone());
                    }
                }
            }
            for v in &reached {
                self.escape_value(v, st);
            }
        }
        // The callee or an argument raised for certain: Python never makes the call.
        if self.raised && self.cond_expr == 0 {
            return Value::Top;
        }
        // `fopt = property(getfopt, setfopt)` in a class body: a property whose setter runs on
        // assignment (the builtin `property`, not a function or class of the program).
        if let (Expr::Name(n), [Value::Func(get), Value::Func(set), ..]) =
            (&*c.func, args.pos.as_slice())
            && n.id.as_str() == "property"
            && !matches!(f, Value::Func(_) | Value::Class(_))
        {
            return Value::Method(Box::new(Value::Func(*get)), property_kind(Some(*set)));
        }
        // A change to a `**kwargs` (`kwargs.pop("axis", 0)`, `kwargs.update(...)`): the variable
        // is rebound to what it holds afterwards (without the popped key; unknown otherwise).
        let changed = match (&f, &*c.func) {
            (Value::Method(recv, m), Expr::Attribute(a))
                if matches!(**recv, Value::Kwargs(_))
                    && !matches!(&**m, "get" | "copy" | "keys" | "values" | "items") =>
            {
                match (&**recv, &*a.value, &**m, args.pos.first()) {
                    (Value::Kwargs(items), Expr::Name(n), "pop", Some(Value::Str(Some(k)))) => {
                        Some((n.id.as_str(), Value::kwargs_with(items, k, None)))
                    }
                    (_, Expr::Name(n), _, _) => Some((n.id.as_str(), Value::Top)),
                    _ => None,
                }
            }
            _ => None,
        };
        // A grown `nn.Sequential` (`self.features.add_module(...)`): its holder is rebound.
        let grown = match (&f, &*c.func) {
            (Value::Method(recv, m), Expr::Attribute(a)) => {
                crate::torch::containers::grown(recv, m, &args).map(|v| (&*a.value, v))
            }
            _ => None,
        };
        // Coverage (below): were all the arguments known?
        let args_known = self.coverage.origin.is_none()
            && matches!(
                f,
                Value::TorchFunc(_) | Value::NpFunc(_) | Value::Builtin(_)
            )
            && !args.unknown
            && args
                .pos
                .iter()
                .chain(args.kw.iter().map(|(_, v)| v))
                .all(|v| !super::coverage::holds_unknown(v, st));
        // Growing a sequence registers the module and changes nothing in it: not an escape.
        let result = match (&grown, &f) {
            (Some((_, v)), Value::Method(_, m)) if !matches!(v, Value::Top) => {
                if &**m == "append" {
                    v.clone()
                } else {
                    Value::None
                }
            }
            _ => self.call_value(&f, args, c.range(), st),
        };
        if let Some((name, v)) = changed {
            self.bind(name, v, st);
        }
        if let Some((holder, v)) = grown {
            self.assign(holder, v, st);
        }
        // Coverage: a library function that made nothing known of arguments that were all
        // known is itself where the value went dark — say so, by the name it was called by,
        // rather than leave the unknown unexplained.
        if args_known
            && self.coverage.origin.is_none()
            && super::coverage::holds_unknown(&result, st)
        {
            let (module, range) = (self.cur_module, c.func.range());
            super::coverage::with_dotted(&c.func, |name| self.coverage.cause(name, module, range));
        }
        result
    }

    /// Give an unknown int held by a variable a name of its own (see [`Self::bind`]).
    /// A completely unknown value is narrowed to an int only as an element of a shape display
    /// (`zeros((n, 3))`: `n` must be an integer for the call to succeed); a whole argument may be
    /// a tuple or an array (`zeros(shape)`, `reshape(x, ...)`), so it stays unknown.
    fn name_unknown_ints(&mut self, e: &'a Expr, in_display: bool, st: &mut State) {
        match e {
            Expr::Name(n) => {
                let name = n.id.as_str();
                let current = st
                    .locals
                    .as_ref()
                    .and_then(|l| l.get(name))
                    .or_else(|| st.globals.get(name))
                    .map(|b| b.value.clone());
                let narrow = match current {
                    Some(Value::Int(Int::Range(..))) => true,
                    Some(Value::Top) => in_display,
                    _ => false,
                };
                if narrow {
                    let in_locals = st.locals.as_ref().is_some_and(|l| l.contains_key(name));
                    let sym = Value::Int(Int::Sym(self.fresh_sym(name)));
                    let b = Binding {
                        value: sym,
                        maybe_unbound: false,
                    };
                    if in_locals {
                        if let Some(l) = &mut st.locals {
                            Arc::make_mut(l).insert(name.into(), b);
                        }
                    } else {
                        Arc::make_mut(&mut st.globals).insert(name.into(), b);
                    }
                }
            }
            Expr::Tuple(t) => t
                .elts
                .iter()
                .for_each(|x| self.name_unknown_ints(x, true, st)),
            Expr::List(t) => t
                .elts
                .iter()
                .for_each(|x| self.name_unknown_ints(x, true, st)),
            _ => {}
        }
    }

    pub(crate) fn call_value(
        &mut self,
        f: &Value,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        match f {
            Value::Func(id) => self.call_function(*id, None, args, range, st),
            Value::Lambda(id) => self.call_lambda(*id, &args, range, st),
            Value::Class(c) => self.instantiate(*c, args, range, st),
            Value::Instance(addr) => {
                let class = match st.heap.get(addr).map(|o| &**o) {
                    Some(Obj::Instance { class, .. }) => Some(*class),
                    _ => None,
                };
                match class.and_then(|c| self.class_attr(c, "__call__", 0)) {
                    Some(Value::Func(id)) => {
                        self.call_function(id, Some(f.clone()), args, range, st)
                    }
                    // `model(x)` of an `nn.Module` runs its `forward` (a torch layer's, for a
                    // subclass of one that defines none).
                    None if class.is_some_and(|c| self.is_torch_module(c, 0)) => {
                        match class.and_then(|c| self.class_attr(c, "forward", 0)) {
                            Some(Value::Func(id)) => {
                                self.call_function(id, Some(f.clone()), args, range, st)
                            }
                            _ => match self.stored_layer(f, st) {
                                Some(l) => self.call_layer(&l, args, range, st),
                                None => Value::Top,
                            },
                        }
                    }
                    _ => Value::Top,
                }
            }
            Value::NpFunc(name) => self.call_numpy(name, &args, range, st),
            // A list of modules: indexed, iterated, appended to and called like the list it
            // is made of (the list itself, not a tuple of its contents).
            Value::TorchFunc("torch.nn.ModuleList") => {
                let addr = match args.pos.as_slice() {
                    [Value::List(a)] => *a,
                    // A tuple, or a generator (`nn.ModuleList(nn.Linear(d, d) for _ in
                    // range(n))`, evaluated as a tuple of its items): a new list of them.
                    [Value::Tuple(seq)] => match self.alloc_list(seq.clone(), range.start(), st) {
                        Value::List(a) => a,
                        _ => return Value::Top,
                    },
                    [] => match self.alloc_list(Seq::empty(), range.start(), st) {
                        Value::List(a) => a,
                        _ => return Value::Top,
                    },
                    _ => return Value::Top,
                };
                Value::Layer(Arc::new(crate::torch::layers::Layer::ModuleList(addr)))
            }
            // A dict of modules: its keys are also attributes.
            Value::TorchFunc("torch.nn.ModuleDict") => {
                let addr = match args.get(0, "modules") {
                    Some(Value::Dict(a)) => *a,
                    None if !args.unknown => {
                        match self.alloc_dict(Vec::new(), true, range.start(), st) {
                            Value::Dict(a) => a,
                            _ => return Value::Top,
                        }
                    }
                    _ => return Value::Top,
                };
                Value::Layer(Arc::new(crate::torch::layers::Layer::ModuleDict(addr)))
            }
            Value::TorchFunc(name) if name.starts_with("torch.utils.data.") => {
                self.call_torch_data(name, &args, range, st)
            }
            // `nn.Sequential(OrderedDict([("fc", ...), ...]))`: the dict's values, in order.
            Value::TorchFunc(name @ "torch.nn.Sequential")
                if matches!(args.pos.as_slice(), [Value::Dict(_)]) =>
            {
                let mut args = args;
                let mut keys = Vec::new();
                if let [Value::Dict(a)] = args.pos.as_slice()
                    && let Some((items, true)) = st.dict(*a)
                {
                    for (k, v) in items {
                        keys.push(match k {
                            Value::Str(Some(k)) => k,
                            _ => "".into(),
                        });
                        args.pos.push(v);
                    }
                    args.pos.remove(0);
                } else {
                    return Value::Top;
                }
                // The children named by the dict's keys (`features.conv0`).
                match self.call_torch(name, &args, range, st) {
                    Value::Layer(l) => match &*l {
                        crate::torch::layers::Layer::Sequential(children, _) => {
                            Value::Layer(Arc::new(crate::torch::layers::Layer::Sequential(
                                children.clone(),
                                keys.into(),
                            )))
                        }
                        _ => Value::Layer(l),
                    },
                    other => other,
                }
            }
            Value::TorchFunc(name) => {
                let args = self.lists_as_tuples(args, st);
                self.call_torch(name, &args, range, st)
            }
            Value::Layer(layer) => {
                let layer = layer.clone();
                self.call_layer(&layer, args, range, st)
            }
            Value::Builtin(b) => self.call_builtin(*b, &args, range, st),
            Value::Method(recv, name) => self.call_method(recv, name, args, range, st),
            Value::Partial(p) => {
                let p = p.clone();
                self.call_partial(&p, args, range, st)
            }
            Value::Int(_)
            | Value::Float(_)
            | Value::Bool(_)
            | Value::None
            | Value::Str(_)
            | Value::List(_)
            | Value::Tuple(_)
            | Value::Array(_)
            | Value::Tensor(_) => {
                let ty = f.type_name().unwrap_or("object");
                self.report(
                    range,
                    "E016",
                    Exc::Type,
                    format!("'{ty}' object is not callable"),
                    Certainty::Certain,
                );
                Value::Top
            }
            _ => {
                self.escape(&args, st);
                Value::Top
            }
        }
    }

    fn call_method(
        &mut self,
        recv: &Value,
        name: &Arc<str>,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        if let Some(rest) = name.strip_prefix("<super ") {
            let id: u32 = rest.trim_end_matches('>').parse().unwrap_or(0);
            return self.call_super_method(id, recv, args, range, st);
        }
        if let Some(rest) = name.strip_prefix("<func ") {
            let id: u32 = rest.trim_end_matches('>').parse().unwrap_or(0);
            return self.call_function(id, Some(recv.clone()), args, range, st);
        }
        if name.starts_with("<namedtuple ") {
            return self.call_named_tuple_method(recv, name, &args, range, st);
        }
        if name.starts_with("<re ") && &**name != super::re_module::PATTERN {
            return self.call_pattern_method(recv, name, &args, range, st);
        }
        match (recv, &**name) {
            (Value::Super(s), _) => {
                let (obj, class) = (s.0.clone(), s.1);
                self.call_super_layer(&obj, class, name, args, range, st)
            }
            (Value::None, "<nothing>") => Value::None,
            (Value::Func(id), "<static>") => self.call_function(*id, None, args, range, st),
            (Value::Func(_), _) => Value::Top,
            (Value::Array(_), _) => match &**name {
                "tolist" if args.pos.is_empty() => match self.tolist(recv, range, st) {
                    Some(list) => list,
                    None => self.call_array_method(recv, name, args, range, st),
                },
                _ => self.call_array_method(recv, name, args, range, st),
            },
            (Value::Tensor(_), "tolist") if args.pos.is_empty() => {
                self.tolist(recv, range, st).unwrap_or(Value::Top)
            }
            (Value::Tensor(_), _) => {
                let args = self.lists_as_tuples(args, st);
                self.call_tensor_method(recv, name, args, range, st)
            }
            (_, "<returns self>") => recv.clone(),
            (_, "<eval>" | "<train>") => {
                let mode = match (&**name, args.get(0, "mode")) {
                    ("<eval>", _) => Some(false),
                    (_, None) => Some(true),
                    (_, Some(Value::Bool(b))) => *b,
                    _ => None,
                };
                self.set_training(recv, mode, st);
                recv.clone()
            }
            (Value::Layer(_), _) if recv.held_modules().is_some() => match recv.held_modules() {
                _ if crate::torch::layers::RETURNS_SELF.contains(&&**name) => recv.clone(),
                Some(Value::List(a)) if matches!(&**name, "append" | "extend" | "insert") => {
                    self.call_list_method(a, name, &args, range, st);
                    recv.clone()
                }
                // `self.heads.items()`, `.keys()`, `.values()`, `.update(...)`: the dict's own.
                Some(Value::Dict(a)) if !crate::torch::layers::HARMLESS.contains(&&**name) => {
                    self.call_dict_method(a, name, &args, range, st)
                }
                _ => Value::Top,
            },
            (
                Value::Instance(_) | Value::Layer(_),
                crate::torch::named_children::NAMED | crate::torch::named_children::PLAIN,
            ) => {
                let named = &**name == crate::torch::named_children::NAMED;
                self.call_children(recv, named, range, st)
            }
            (Value::Instance(_), crate::torch::container_subclass::ADDS) => {
                self.add_held_module(recv, &args, st);
                Value::None
            }
            // `self.register_buffer("pe", pe)`: `self.pe` is `pe` from now on.
            (Value::Instance(addr), "<registers>") => {
                if let (Some(Value::Str(Some(name))), Some(v)) = (args.pos.first(), args.pos.get(1))
                    && let Some(Obj::Instance { attrs, .. }) = st.obj_mut(*addr)
                {
                    attrs.insert(
                        name.clone(),
                        Binding {
                            value: v.clone(),
                            maybe_unbound: false,
                        },
                    );
                }
                Value::None
            }
            (_, "<harmless>") => Value::Top,
            (Value::List(addr), _) => self.call_list_method(*addr, name, &args, range, st),
            (Value::ArgParser(_), _) => self.call_arg_parser_method(recv, name, &args, range, st),
            (Value::Kwargs(items), "get" | "pop") => {
                let key = match args.pos.first() {
                    Some(Value::Str(Some(k))) => k.clone(),
                    _ => return Value::Top,
                };
                Value::kwarg(items, &key).unwrap_or_else(|| {
                    args.pos.get(1).cloned().unwrap_or(if &**name == "get" {
                        Value::None
                    } else {
                        Value::Top
                    })
                })
            }
            (Value::Kwargs(_), "copy") => recv.clone(),
            // `for k, v in kwargs.items(): setattr(self, k, v)`: the keywords the call passed.
            (Value::Kwargs(items), "items" | "keys" | "values") => {
                let seq: Vec<Value> = items
                    .iter()
                    .map(|(k, v)| match &**name {
                        "keys" => Value::Str(Some(k.clone())),
                        "values" => v.clone(),
                        _ => Value::Tuple(Seq::Exact(
                            vec![Value::Str(Some(k.clone())), v.clone()].into(),
                        )),
                    })
                    .collect();
                self.alloc_list(Seq::Exact(seq.into()), range.start(), st)
            }
            (Value::Dict(a), _) => self.call_dict_method(*a, name, &args, range, st),
            // CPython 3: `platform.python_version_tuple()[0] < "3"` guards dead Python 2 code.
            (Value::Module(super::value::ModRef::Platform), "python_version_tuple") => {
                Value::Tuple(Seq::Exact(
                    vec![
                        Value::Str(Some("3".into())),
                        Value::Str(None),
                        Value::Str(None),
                    ]
                    .into(),
                ))
            }
            (Value::Tuple(_), "index" | "count") => Value::Int(Int::Range(Some(0), None)),
            (Value::Str(s), _) => self.call_str_method(s, name, &args, range, st),
            _ => {
                self.escape(&args, st);
                Value::Top
            }
        }
    }

    /// `d.get(k, default)`, `d.keys()`, `d.values()`, `d.items()`, `d.copy()`; any other method
    /// (`update`, `pop`, `setdefault`, ...) may change any key: the dict becomes unknown.
    fn call_dict_method(
        &mut self,
        a: Addr,
        name: &str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let Some((items, exact)) = st.dict(a) else {
            return Value::Top;
        };
        let seq = |v: Vec<Value>, exact: bool| {
            if exact {
                Seq::Exact(v.into())
            } else {
                Seq::Summary(Box::new(Value::Top), Int::Range(Some(0), None))
            }
        };
        match name {
            "get" => {
                let key = args.pos.first().cloned().unwrap_or(Value::Top);
                let default = args.pos.get(1).cloned().unwrap_or(Value::None);
                match items.iter().find(|(k, _)| *k == key) {
                    Some((_, v)) if key.is_const_key() => v.clone(),
                    None if exact && key.is_const_key() => default,
                    _ => Value::Top,
                }
            }
            "keys" => {
                let keys = items.iter().map(|(k, _)| k.clone()).collect();
                self.alloc_list(seq(keys, exact), range.start(), st)
            }
            "values" => {
                let values = items.iter().map(|(_, v)| v.clone()).collect();
                self.alloc_list(seq(values, exact), range.start(), st)
            }
            "items" => {
                let pairs = items
                    .iter()
                    .map(|(k, v)| Value::Tuple(Seq::Exact(vec![k.clone(), v.clone()].into())))
                    .collect();
                self.alloc_list(seq(pairs, exact), range.start(), st)
            }
            "copy" => self.alloc_dict(items, exact, range.start(), st),
            _ => {
                st.insert_obj(a, Obj::unknown_dict());
                self.escape(args, st);
                Value::Top
            }
        }
    }

    /// Lists of known contents passed to torch become tuples (`torch.cat([a, b])`,
    /// `torch.zeros([2, 3])`): torch reads them and keeps nothing.
    pub(crate) fn lists_as_tuples(&self, mut args: Args, st: &State) -> Args {
        let conv = |v: &mut Value| {
            if let Value::List(a) = v
                && let Some(Seq::Exact(items)) = st.list(*a)
            {
                *v = Value::Tuple(Seq::Exact(items));
            }
        };
        args.pos.iter_mut().for_each(conv);
        args.kw.iter_mut().for_each(|(_, v)| conv(v));
        args
    }

    pub(crate) fn call_list_method(
        &mut self,
        addr: Addr,
        name: &str,
        args: &Args,
        _range: TextRange,
        st: &mut State,
    ) -> Value {
        let Some(seq) = st.list(addr) else {
            return Value::Top;
        };
        let grow = |seq: &Seq, items: &[Value]| -> Seq {
            match seq {
                Seq::Exact(v) if v.len() + items.len() <= 4096 => {
                    Seq::Exact(v.iter().chain(items.iter()).cloned().collect())
                }
                _ => {
                    let elem = items.iter().fold(seq.element(), |a, b| a.join(b));
                    let elem = if matches!(seq, Seq::Exact(v) if v.is_empty()) {
                        items
                            .iter()
                            .skip(1)
                            .fold(items.first().cloned().unwrap_or(Value::Top), |a, b| {
                                a.join(b)
                            })
                    } else {
                        elem
                    };
                    let len = match seq.len().constant() {
                        Some(n) => Int::Const(n + items.len() as i64),
                        None => Int::Range(Some(0), None),
                    };
                    Seq::Summary(Box::new(elem), len)
                }
            }
        };
        let (new, ret) = match name {
            "append" => (
                Some(grow(
                    &seq,
                    &[args.get(0, "object").cloned().unwrap_or(Value::Top)],
                )),
                Value::None,
            ),
            "insert" => {
                let item = args.get(1, "object").cloned().unwrap_or(Value::Top);
                let at = args
                    .get(0, "index")
                    .and_then(Value::as_int)
                    .and_then(|i| i.constant());
                let new = match (&seq, at) {
                    // Python's rule: a negative index counts from the end, then both ends clamp
                    // (`results.insert(0, r)` in a loop builds the list from the back).
                    (Seq::Exact(v), Some(i)) if v.len() < 4096 => {
                        let n = v.len() as i64;
                        let i = if i < 0 { (i + n).max(0) } else { i.min(n) } as usize;
                        let mut items = v.to_vec();
                        items.insert(i, item);
                        Seq::Exact(items.into())
                    }
                    _ => match grow(&seq, &[item]) {
                        Seq::Exact(v) => Seq::Summary(
                            Box::new(Seq::Exact(v.clone()).element()),
                            Int::Const(v.len() as i64),
                        ),
                        s => s,
                    },
                };
                (Some(new), Value::None)
            }
            "extend" => {
                let items = match args.get(0, "iterable") {
                    Some(Value::Tuple(Seq::Exact(v))) => Some(v.to_vec()),
                    Some(Value::List(a)) => match st.list(*a) {
                        Some(Seq::Exact(v)) => Some(v.to_vec()),
                        _ => None,
                    },
                    _ => None,
                };
                match items {
                    Some(items) => (Some(grow(&seq, &items)), Value::None),
                    None => (
                        Some(Seq::Summary(
                            Box::new(Value::Top),
                            Int::Range(Some(0), None),
                        )),
                        Value::None,
                    ),
                }
            }
            "pop" => {
                let elem = seq.element();
                let new = match &seq {
                    Seq::Exact(v) if !v.is_empty() && args.pos.is_empty() => {
                        let last = v[v.len() - 1].clone();
                        (Some(Seq::Exact(v[..v.len() - 1].to_vec().into())), last)
                    }
                    _ => (
                        Some(Seq::Summary(
                            Box::new(elem.clone()),
                            Int::Range(Some(0), None),
                        )),
                        elem,
                    ),
                };
                (new.0, new.1)
            }
            "remove" => (
                Some(Seq::Summary(
                    Box::new(seq.element()),
                    Int::Range(Some(0), None),
                )),
                Value::None,
            ),
            "clear" => (Some(Seq::empty()), Value::None),
            "reverse" if matches!(seq, Seq::Exact(_)) => {
                let Seq::Exact(v) = &seq else { unreachable!() };
                (
                    Some(Seq::Exact(v.iter().rev().cloned().collect())),
                    Value::None,
                )
            }
            "sort" | "reverse" => (
                Some(Seq::Summary(Box::new(seq.element()), seq.len())),
                Value::None,
            ),
            "copy" => {
                let v = self.alloc_list(seq.clone(), _range.start(), st);
                (None, v)
            }
            "index" | "count" => (None, Value::Int(Int::Range(Some(0), None))),
            _ => (None, Value::Top),
        };
        if let Some(new) = new
            && let Some(Obj::List(s)) = st.obj_mut(addr)
        {
            *s = new;
        }
        ret
    }

    /// A call the analysis does not follow from a function nobody calls: unknown, what it was
    /// given escapes, and the coverage says why.
    fn not_followed(&mut self, callee: u32, args: Args, range: TextRange, st: &mut State) -> Value {
        self.escape(&args, st);
        // What the function would have changed escapes too (a wrapper's wrapped function
        // appending to its module's trace list).
        self.escape_value(&Value::Func(callee), st);
        self.coverage.cause(
            super::coverage::WRAPPED_FROM_UNCALLED,
            self.cur_module,
            range,
        );
        Value::Top
    }

    /// A new instance of class `c` with no attributes, made at `range`.
    pub(crate) fn fresh_instance(&mut self, c: u32, range: TextRange, st: &mut State) -> Value {
        let addr = self.heap_addr(u32::from(range.start()));
        st.insert_obj(
            addr,
            Obj::Instance {
                class: c,
                attrs: Env::default(),
            },
        );
        Value::Instance(addr)
    }

    fn instantiate(&mut self, c: u32, args: Args, range: TextRange, st: &mut State) -> Value {
        // A `__new__` of the program decides what `C(...)` is: `__init__` runs on its result
        // only when that is an instance of `C` (Python's rule). An ndarray subclass's
        // `__new__` returns a view the analysis does not follow, so the object is unknown —
        // not an instance holding only the class's defaults (`names: tuple = ()`).
        if let Some(Value::Func(new)) = self.class_attr(c, "__new__", 0) {
            // From a function nobody calls: not followed (astropy's tests make thousands of
            // `Quantity`s, whose `__new__` is long).
            if self.uncalled {
                return self.not_followed(new, args, range, st);
            }
            let mut with_cls = args.clone();
            with_cls.pos.insert(0, Value::Class(c));
            let made = self.call_function(new, None, with_cls, range, st);
            let ours = match &made {
                Value::Instance(a) => match st.heap.get(a).map(|o| &**o) {
                    Some(Obj::Instance { class, .. }) => {
                        self.derives_from(*class, c, 0) == Some(true)
                    }
                    _ => false,
                },
                _ => false,
            };
            if ours && let Some(Value::Func(init)) = self.class_attr(c, "__init__", 0) {
                self.call_function(init, Some(made.clone()), args, range, st);
            }
            return made;
        }
        let obj = self.fresh_instance(c, range, st);
        let Value::Instance(addr) = obj else {
            unreachable!("fresh_instance makes an instance")
        };
        match self.class_attr(c, "__init__", 0) {
            Some(Value::Func(init)) => {
                self.call_function(init, Some(obj.clone()), args, range, st);
            }
            // A dataclass's generated `__init__`: each field from its argument, else its
            // default; then `__post_init__`.
            None if self.classes[c as usize].fields.is_some() => {
                let fields = self.classes[c as usize].fields.clone().unwrap_or_default();
                let mut bound = Env::default();
                for (i, f) in fields.iter().enumerate() {
                    // A field whose class attribute is an object may be a descriptor: the
                    // generated `__init__` assigns through its `__set__`, and the default is
                    // what its `__get__` returns.
                    let default = self.class_attr(c, f, 0);
                    let v = if args.unknown || matches!(default, Some(Value::Instance(_))) {
                        Value::Top
                    } else {
                        args.pos
                            .get(i)
                            .cloned()
                            .or_else(|| args.kw(f).cloned())
                            .or(default)
                            .unwrap_or(Value::Top)
                    };
                    bound.insert(
                        f.clone(),
                        Binding {
                            value: v,
                            maybe_unbound: false,
                        },
                    );
                }
                if let Some(Obj::Instance { attrs, .. }) = st.obj_mut(addr) {
                    *attrs = bound;
                }
                if let Some(Value::Func(post)) = self.class_attr(c, "__post_init__", 0) {
                    self.call_function(post, Some(obj.clone()), Args::default(), range, st);
                }
            }
            // A subclass of a torch layer with no `__init__` of its own: the layer's.
            None => {
                if let Some(layer) = self.torch_layer_base(c, 0) {
                    let args = self.lists_as_tuples(args, st);
                    let built = crate::torch::layers::construct(layer, &args);
                    self.store_layer(&obj, built, st);
                }
            }
            _ => {}
        }
        obj
    }

    /// Call user function `id` (with `this` as its first argument for a method).
    pub(crate) fn call_function(
        &mut self,
        id: u32,
        this: Option<Value>,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        // A decorator's wrapper called from a function nobody calls (a test calling a library's
        // validated public functions, thousands of times): not run — the validation such
        // wrappers do costs more than the rest of the file, and unknown arguments teach
        // nothing. Code the program runs (a driver, `main()`) goes through the wrapper.
        if self.uncalled && self.wrappers.contains(&id) {
            return self.not_followed(id, args, range, st);
        }
        // A constructor may be re-entered once: one that builds another instance of its class
        // through a factory (pyquaternion's `__init__` → `_from_axis_angle` → `cls(...)`). Any
        // other re-entry is recursion, cut (running recursive code one level deeper cost
        // astropy's sweep 40%).
        let limit = if self.funcs[id as usize].def.name.as_str() == "__init__" {
            2
        } else {
            1
        };
        if self.stack.len() >= MAX_CALL_DEPTH
            || self.stack.iter().filter(|&&f| f == id).count() >= limit
            || self.out_of_fuel
            || !self.tick()
        {
            // Not run (recursion, depth, budget): it may change whatever it is given.
            if let Some(t) = &this {
                self.escape_value(t, st);
            }
            self.escape(&args, st);
            return Value::Top;
        }
        let def = self.funcs[id as usize].def;
        let module = self.funcs[id as usize].module;
        let receiver = match &this {
            Some(Value::Instance(a)) => Some(*a),
            _ => None,
        };
        let mut pos: Vec<Value> = this.into_iter().collect();
        pos.extend(args.pos.iter().cloned());
        let params: Vec<&'a ast::ParameterWithDefault> = def
            .parameters
            .posonlyargs
            .iter()
            .chain(def.parameters.args.iter())
            .collect();
        // Does a named parameter (positional or keyword-only) take keyword `name`?
        let takes = |name: &str| {
            params.iter().any(|p| p.parameter.name.as_str() == name)
                || def
                    .parameters
                    .kwonlyargs
                    .iter()
                    .any(|p| p.parameter.name.as_str() == name)
        };
        // A call that cannot bind — a keyword the function does not take, more positional
        // arguments than it has with no `**kwargs` / `*args` to take them, or a required
        // parameter left out — raises TypeError before the body runs: nothing in the body is
        // reached from it (statsmodels' `approx_hess_cs(x, f, eps, h=1e-20)` in a `__main__`
        // block).
        if !args.unknown {
            let stray_kw = def.parameters.kwarg.is_none() && args.kw.iter().any(|(k, _)| !takes(k));
            let too_many = def.parameters.vararg.is_none() && pos.len() > params.len();
            // A required parameter nobody passed (scikit-learn's tests call
            // `incr_mean_variance_axis(X=axis, axis=last_mean, ...)` without `last_n` inside
            // `pytest.raises(TypeError)`).
            let passed = |name: &str| args.kw(name).is_some();
            let missing = params.iter().enumerate().any(|(i, p)| {
                i >= pos.len() && p.default.is_none() && !passed(p.parameter.name.as_str())
            }) || def
                .parameters
                .kwonlyargs
                .iter()
                .any(|p| p.default.is_none() && !passed(p.parameter.name.as_str()));
            if stray_kw || too_many || missing {
                self.escape(&args, st);
                return Value::Top;
            }
        }
        let mut values: Vec<Value> = Vec::with_capacity(params.len() + 4);
        let mut env = Env::default();
        for (i, p) in params.iter().enumerate() {
            let name = p.parameter.name.as_str();
            let v = pos
                .get(i)
                .cloned()
                .or_else(|| args.kw(name).cloned())
                .or_else(|| self.funcs[id as usize].defaults.get(i).cloned().flatten())
                .unwrap_or(Value::Top);
            let v = if args.unknown && i >= pos.len() {
                Value::Top
            } else {
                v
            };
            values.push(v);
        }
        // What the memo key needs beyond the positional parameters: `*args` and keyword-only
        // values (two calls `f(1, 2)` and `f(1, 2, 3)` of `def f(*xs)` differ).
        let mut extra_key: Vec<Value> = Vec::new();
        if let Some(va) = &def.parameters.vararg {
            let extra: Vec<Value> = pos.iter().skip(params.len()).cloned().collect();
            let v = if args.unknown {
                Value::Tuple(Seq::Summary(
                    Box::new(Value::Top),
                    Int::Range(Some(0), None),
                ))
            } else {
                Value::Tuple(Seq::Exact(extra.into()))
            };
            extra_key.push(v.clone());
            env.insert(va.name.as_str().into(), bound(v));
        }
        for (i, p) in def.parameters.kwonlyargs.iter().enumerate() {
            let name = p.parameter.name.as_str();
            let v = args
                .kw(name)
                .cloned()
                .or_else(|| {
                    self.funcs[id as usize]
                        .kw_defaults
                        .get(i)
                        .cloned()
                        .flatten()
                })
                .unwrap_or(Value::Top);
            // Unknown arguments (an uncalled function): a keyword-only parameter may be passed.
            let v = if args.unknown && args.kw(name).is_none() {
                Value::Top
            } else {
                v
            };
            extra_key.push(v.clone());
            env.insert(name.into(), bound(v));
        }
        if let Some(kw) = &def.parameters.kwarg {
            // The keywords no parameter takes, when the call's are all known.
            let v = if args.unknown {
                Value::Top
            } else {
                Value::Kwargs(args.kw.iter().filter(|(k, _)| !takes(k)).cloned().collect())
            };
            extra_key.push(v.clone());
            env.insert(kw.name.as_str().into(), bound(v));
        }
        // Hints on parameters refine unknown arguments and check known ones (W303, at the
        // call: where jaxtyping's runtime checker raises); the sizes they name are bound for
        // the return annotation.
        let func_scope = format!("f{module}:{}", u32::from(def.range.start()));
        let mut sizes = super::state::FxMap::default();
        let mut hinted = Vec::with_capacity(values.len());
        for (p, v) in params.iter().zip(values) {
            let v = match &p.parameter.annotation {
                Some(h) => match self.param_hint(h, v, (&func_scope, module), &mut sizes, st) {
                    Ok(v) => v,
                    Err((v, m)) => {
                        self.report(
                            range,
                            "W303",
                            Exc::Hint,
                            format!(
                                "argument `{}` of `{}` {m}",
                                p.parameter.name.as_str(),
                                def.name.as_str()
                            ),
                            Certainty::Certain,
                        );
                        v
                    }
                },
                None => v,
            };
            hinted.push(v);
        }
        for (p, v) in params.iter().zip(hinted.iter()) {
            env.insert(p.parameter.name.as_str().into(), bound(v.clone()));
        }
        // Globals are the defining module's. When that module has not finished running (the
        // function is called during a circular import, or from another module while the entry
        // runs), its globals are not known: names missing from the frame are then unknown,
        // not undefined.
        let (globals, blind) = if module == self.cur_module {
            (st.globals.clone(), self.blind_globals)
        } else {
            match &self.modules[module as usize].status {
                super::ModStatus::Done(g) => (g.clone(), self.modules[module as usize].raised),
                _ => match self.suspended.iter().rev().find(|s| s.0 == module) {
                    Some((_, g, blind)) => (g.clone(), *blind),
                    None => (Arc::new(Env::default()), true),
                },
            }
        };
        // Memo: the same function on the same arguments, with the same globals and heap (the
        // memo holds weak references: it never forces a copy of what it remembers).
        let mut key_values = hinted;
        key_values.extend(extra_key);
        let key = (id, key_values);
        let remembered = self.memo.get(&key).into_iter();
        for entries in remembered.chain(self.memo_base.get(&key)) {
            for e in entries {
                if e.globals_in.strong_count() > 0
                    && e.heap_in.strong_count() > 0
                    && std::ptr::eq(e.globals_in.as_ptr(), Arc::as_ptr(&globals))
                    && std::ptr::eq(e.heap_in.as_ptr(), Arc::as_ptr(&st.heap))
                {
                    return e.ret.clone();
                }
            }
        }
        if let Some(v) = self.skip_cut_call(&key, module, receiver, &args, range, st) {
            return v;
        }
        // Coverage: a parameter bound to an unknown argument traces back to what the call's
        // arguments met; any other forgets what an earlier function's name of that text met.
        for (name, b) in &env {
            self.coverage.bind(name, matches!(b.value, Value::Top));
        }
        let frame = State {
            globals: globals.clone(),
            locals: Some(Arc::new(env)),
            heap: st.heap.clone(),
        };
        let heap_in = Arc::downgrade(&st.heap);
        let globals_in = Arc::downgrade(&globals);
        self.mark_analysed(id, true);
        let canonical = self.funcs[id as usize].canonical;
        self.mark_analysed(canonical, true);
        self.stack.push(id);
        // A function called while a class body runs (a decorator's argument) has a frame of
        // its own: it is not in that class body.
        let saved = (
            self.cur_module,
            self.cur_func,
            self.call_site,
            self.class_body,
            self.blind_globals,
        );
        let saved_ctx = self.call_ctx;
        // Offsets alone collide: two modules' calls at one offset, or one `def` line of a
        // decorator factory that every decorated function runs through — with another
        // function as its argument each time (`@kwonly` applied inside `@legacy(...)`).
        self.call_ctx = {
            use std::hash::{Hash, Hasher};
            let mut h = ranklift_python::fxhash::FastHasher::default();
            (saved.0, saved.1, u32::from(range.start())).hash(&mut h);
            // Only the functions passed (what a wrapper's closure captures): hashing every
            // argument's value on every call cost more than it separated.
            for v in &key.1 {
                if let Value::Func(f) = v {
                    f.hash(&mut h);
                }
            }
            h.finish() as u32
        };
        let leaves = module != saved.0;
        if leaves {
            self.suspended.push((saved.0, st.globals.clone(), saved.4));
        }
        self.cur_module = module;
        self.cur_func = Some(id);
        self.call_site = u32::from(range.start());
        // Objects a method makes belong to its receiver (object sensitivity): two blocks
        // built by one helper each get their own layers, as `CellA(32, 64)` and
        // `CellA(128, 256)` do when both are made by `self._downsample(...)`.
        let saved_salt = self.iter_salt;
        if let Some(a) = receiver {
            self.iter_salt = super::stmt::receiver_salt(saved_salt, a);
        }
        self.class_body = 0;
        self.blind_globals = blind;
        let conditional = u32::from(self.funcs[id as usize].conditional);
        // Entering an imported module's code from the entry's: what is undecided from here on
        // lies in that module (its own dispatch on the entry's arguments).
        let saved_base = self.frame_base;
        if saved.0 == 0 && module != 0 {
            self.frame_base = self.undecided + self.after_guard;
        }
        self.undecided += conditional;
        self.chain.push((saved.0, range));
        // A call from an uncalled function of the entry into another module: on a budget of its
        // own, taken from the entry's.
        let entry_fuel = (self.uncalled && saved.0 == 0 && module != 0).then_some(self.fuel);
        if let Some(total) = entry_fuel {
            self.fuel = total.min(super::FOREIGN_CALL_FUEL);
        }
        let granted = self.fuel;
        let out = self.exec_block(&def.body, frame);
        if leaves {
            self.suspended.pop();
        }
        self.call_ctx = saved_ctx;
        self.chain.pop();
        self.undecided -= conditional;
        self.frame_base = saved_base;
        (
            self.cur_module,
            self.cur_func,
            self.call_site,
            self.class_body,
            self.blind_globals,
        ) = saved;
        self.iter_salt = saved_salt;
        self.stack.pop();
        // The budget ran out inside the body: where it stopped is not where it returns.
        let cut = self.fuel == 0;
        if let Some(total) = entry_fuel {
            self.fuel = total - (granted - self.fuel);
            self.out_of_fuel = self.fuel == 0;
            if cut && self.fuel > 0 {
                self.coverage
                    .cause(super::coverage::CALL_BUDGET, saved.0, range);
                self.cut_calls.insert(key.clone());
            }
        }
        let (ret, end) = match (out.returns, out.normal) {
            // Cut: the paths that returned before it are not all the paths that return.
            (_, Some(n)) if cut => (Value::Top, Some(n)),
            (Some((s, _)), None) if cut => (Value::Top, Some(s)),
            (Some((s, v)), Some(n)) => (v.join(&Value::None), Some(s.join(&n))),
            (Some((s, v)), None) => (v, Some(s)),
            (None, Some(n)) => (Value::None, Some(n)),
            (None, None) => (Value::Top, None),
        };
        let scope = &self.funcs[id as usize].scope;
        let deferred = scope.generator || def.is_async;
        let ret = if deferred { Value::Top } else { ret };
        // Every path through the body raised (a certain error, or a `raise` it cannot get
        // past): so does the call, and the caller's statement stops here as Python's does. Its
        // block does not go on with the call's unknown result (a loop's later statements would
        // carry it round to the next iteration's head).
        if end.is_none() && !cut && !deferred {
            self.raised |= self.cond_expr == 0;
        }
        // The result against the return annotation, reported at the annotation.
        if let Some(ann) = &def.returns
            && !cut
            && let Some(m) =
                self.check_return_hint(ann, &ret, (&func_scope, module), &mut sizes, st)
        {
            let saved = self.cur_module;
            self.cur_module = module;
            self.report(
                ann.range(),
                "W303",
                Exc::Hint,
                format!("`{}` {m}", def.name.as_str()),
                Certainty::Certain,
            );
            self.cur_module = saved;
        }
        if let Some(end) = end {
            if module == self.cur_module {
                st.globals = end.globals.clone();
            }
            st.heap = end.heap.clone();
            // Where the budget cut the body, the rest of it (a callback that appends to a list
            // the caller reads afterwards, a constructor's later attributes) was not seen: what
            // was passed, its receiver too, may have changed.
            if cut {
                if let Some(a) = receiver {
                    self.escape_value(&Value::Instance(a), st);
                }
                self.escape(&args, st);
                self.escape_module_containers(&end.globals, st);
            }
            // Only calls that changed neither the globals nor the heap are remembered (most
            // calls of numerical helpers): a hit then needs no state to restore.
            let pure = std::ptr::eq(globals_in.as_ptr(), Arc::as_ptr(&end.globals))
                && std::ptr::eq(heap_in.as_ptr(), Arc::as_ptr(&end.heap));
            if pure {
                self.memo_funcs.insert(key.0);
                let entries = self.memo.entry(key).or_default();
                if entries.len() < 4 {
                    entries.push(MemoEntry {
                        globals_in,
                        heap_in,
                        ret: ret.clone(),
                    });
                }
            }
        }
        ret
    }

    /// Analyse a function nobody called, with unknown (or hinted) arguments.
    pub(crate) fn analyse_uncalled(&mut self, id: u32, mut st: State) {
        let this = self.funcs[id as usize]
            .class
            .map(|c| self.uncalled_receiver(id, c, &mut st));
        let args = Args {
            unknown: true,
            ..Args::default()
        };
        let def = self.funcs[id as usize].def;
        let range = def.range();
        // Coverage: what flows from the unknown arguments is unknown for want of a caller.
        let cause = self.coverage.cause(
            super::coverage::NO_CALLER,
            self.funcs[id as usize].module,
            def.name.range(),
        );
        // (The parameters take it as the call binds them.)
        self.coverage.origin = Some(cause);
        let outer = std::mem::replace(&mut self.uncalled, true);
        self.call_function(id, this, args, range, &mut st);
        self.uncalled = outer;
        self.coverage.origin = None;
        self.mark_analysed(id, true);
    }

    /// The `self` of an uncalled method: unknown, but for a shape-annotated method of an
    /// `nn.Module` subclass whose `__init__` needs no argument (`forward(self, x: Float[Tensor,
    /// "b 3 32 32"]) -> Float[Tensor, "b 10"]`, never called in the project): the module
    /// `Net()` builds, so the annotated forward is checked against its body. That
    /// instantiation is the analysis' own: what it reports is dropped, and the functions it
    /// ran are still analysed on their own afterwards.
    fn uncalled_receiver(&mut self, id: u32, class: u32, st: &mut State) -> Value {
        let def = self.funcs[id as usize].def;
        let hinted = def.returns.is_some()
            || def
                .parameters
                .args
                .iter()
                .any(|p| p.parameter.annotation.is_some());
        if !hinted || !self.is_torch_module(class, 0) {
            return Value::Top;
        }
        let init_needs_args = match self.class_attr(class, "__init__", 0) {
            Some(Value::Func(init)) => {
                // Every parameter after `self` (positional `defaults` are aligned with
                // positional-only then positional parameters) needs a default.
                let f = &self.funcs[init as usize];
                let p = &f.def.parameters;
                let positional = p.posonlyargs.len() + p.args.len();
                (1..positional).any(|i| f.defaults.get(i).is_none_or(Option::is_none))
                    || p.kwonlyargs
                        .iter()
                        .enumerate()
                        .any(|(i, _)| f.kw_defaults.get(i).is_none_or(Option::is_none))
            }
            None => false,
            Some(_) => true,
        };
        if init_needs_args {
            return Value::Top;
        }
        let findings = self.findings.clone();
        let unanalysed: Vec<usize> = (0..self.funcs.len())
            .filter(|i| !self.funcs[*i].analysed)
            .collect();
        let range = def.range;
        let this = self.instantiate(class, Args::default(), range, st);
        let this = if self.raised { Value::Top } else { this };
        self.raised = false;
        self.findings = findings;
        for i in unanalysed {
            if i != id as usize {
                self.mark_analysed(i as u32, false);
            }
        }
        this
    }

    /// The elements of an iterable as a sequence.
    pub(crate) fn as_seq(&mut self, v: &Value, st: &State) -> Seq {
        match v {
            Value::Tuple(s) => s.clone(),
            Value::List(a) => st.list(*a).unwrap_or(Seq::Summary(
                Box::new(Value::Top),
                Int::Range(Some(0), None),
            )),
            _ => {
                let len = self.iteration_len(v, st);
                match self.iteration(v, st) {
                    super::stmt::Iteration::Items(items) => Seq::Exact(items.into()),
                    super::stmt::Iteration::Summary(e) => Seq::Summary(Box::new(e), len),
                }
            }
        }
    }
}

fn bound(v: Value) -> Binding {
    Binding {
        value: v,
        maybe_unbound: false,
    }
}
