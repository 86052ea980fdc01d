//! Locating communication: `Channel.open`, `com`, `select`, choreographic calls and
//! constructors (their arguments against the callee's located signature).

use ruff_python_ast::{self as ast, Expr, Operator};
use ruff_text_size::Ranged;

use super::*;
use crate::codes::*;
use crate::decls::role_arg;
use crate::loc::Loc;

impl Cx<'_, '_> {
    pub(super) fn open(&mut self, e: &Expr, call: &ast::ExprCall, expected: Option<&Loc>) -> Loc {
        if !self.method.is_entry {
            self.err(
                e.range(),
                E_CHAN,
                "`Channel.open` outside an `@entry` method".to_owned(),
                "open channels in the entry method and pass them to choreographies",
            );
            return Loc::Unknown;
        }
        let name = match call.arguments.args.first() {
            Some(Expr::StringLiteral(s)) if call.arguments.len() == 1 => {
                s.value.to_str().to_owned()
            }
            _ => {
                self.err(
                    e.range(),
                    E_CHAN,
                    "`Channel.open` takes one string literal, the channel's name".to_owned(),
                    "e.g. `Channel.open(\"ab\")`",
                );
                return Loc::Unknown;
            }
        };
        match expected {
            Some(Loc::Chan { a, b, di }) => {
                let ty = self.chan_type.take();
                self.special(
                    e,
                    Special::Open {
                        name,
                        a: a.clone(),
                        b: b.clone(),
                        ty,
                    },
                );
                self.direct.insert(a.clone());
                self.direct.insert(b.clone());
                Loc::Chan {
                    a: a.clone(),
                    b: b.clone(),
                    di: *di,
                }
            }
            _ => {
                self.err(
                    e.range(),
                    E_CHAN,
                    "`Channel.open` needs an annotated target naming its two roles".to_owned(),
                    "write `ch: Channel[object, A, B] = Channel.open(\"ab\")`",
                );
                Loc::Unknown
            }
        }
    }

    pub(super) fn com(
        &mut self,
        e: &Expr,
        call: &ast::ExprCall,
        chan: &Expr,
        (a, b, di): (String, String, bool),
        expected: Option<&Loc>,
    ) -> Loc {
        let args = &call.arguments;
        if args.args.len() != 1 || !args.keywords.is_empty() {
            self.err(
                e.range(),
                E_CHAN,
                "`com` takes exactly one positional argument, the value to send".to_owned(),
                "write `ch.com(value)`",
            );
            self.visit_args(call);
            return Loc::Unknown;
        }
        let arg = &args.args[0];
        self.hint.push(None);
        let l = self.expr(arg, None);
        self.hint.pop();
        let chan_text = crate::short(chan);
        let sender = match l {
            Loc::At(s) if s == a || s == b => s,
            Loc::At(s) => {
                self.err(
                    arg.range(),
                    E_CHAN,
                    format!(
                        "`{}` is at {s}, but channel `{chan_text}` connects {a} and {b}",
                        crate::short(arg)
                    ),
                    format!(
                        "send it over a channel with an end at {s}, or move it to {a} or {b} first"
                    ),
                );
                return Loc::Unknown;
            }
            Loc::Every => match expected {
                Some(Loc::At(t)) if *t == a || *t == b => {
                    if *t == a {
                        b.clone()
                    } else {
                        a.clone()
                    }
                }
                _ if di => a.clone(),
                _ => {
                    self.err(
                        arg.range(),
                        E_INFER,
                        format!(
                            "cannot tell which end of `{chan_text}` sends `{}`",
                            crate::short(arg)
                        ),
                        format!("locate the value: `{} @ {a}`", crate::short(arg)),
                    );
                    return Loc::Unknown;
                }
            },
            Loc::Unknown => return Loc::Unknown,
            other => {
                self.err(
                    arg.range(),
                    E_CHAN,
                    format!("only data can be sent, not a choreographic value ({other})"),
                    "send the fields you need",
                );
                return Loc::Unknown;
            }
        };
        if di && sender != a {
            self.err(
                e.range(),
                E_CHAN,
                format!("`{chan_text}` is a DiChannel from {a} to {b}; {sender} cannot send on it"),
                "use a `Channel` (both directions) or a second DiChannel",
            );
            return Loc::Unknown;
        }
        let receiver = if sender == a { b.clone() } else { a.clone() };
        self.direct.insert(a.clone());
        self.direct.insert(b.clone());
        self.special(
            e,
            Special::Com {
                chan: chan.range(),
                arg: arg.range(),
                sender,
                receiver: receiver.clone(),
            },
        );
        Loc::At(receiver)
    }

    /// `ch.select(E.L @ R)` as a statement.
    pub(super) fn select(&mut self, e: &Expr, call: &ast::ExprCall, chan: &Expr) {
        let base = self.expr(chan, None);
        let Loc::Chan { a, b, di } = base else {
            if base != Loc::Unknown {
                self.err(
                    chan.range(),
                    E_CHAN,
                    format!("`{}` is not a channel", crate::short(chan)),
                    "selections are sent over `Channel`/`DiChannel` values",
                );
            }
            return;
        };
        let args = &call.arguments;
        if args.args.len() != 1 || !args.keywords.is_empty() {
            self.err(
                e.range(),
                E_CHAN,
                "`select` takes one label: `ch.select(Enum.LABEL @ R)`".to_owned(),
                "R is the role that made the choice",
            );
            return;
        }
        let arg = &args.args[0];
        let (label, sender) = match arg {
            Expr::BinOp(bo) if bo.op == Operator::MatMult => {
                let r = match &*bo.right {
                    Expr::Call(c) => &*c.func,
                    r => r,
                };
                (&*bo.left, role_arg(r, &self.class.roles, self.d, self.out))
            }
            other if di => (other, Some(a.clone())),
            other => (other, None),
        };
        let label_ok = match label {
            Expr::Attribute(la) => name_of(&la.value)
                .and_then(|en| self.d.enums.get(en))
                .is_some_and(|ms| ms.iter().any(|m| m == la.attr.as_str())),
            _ => false,
        };
        if !label_ok {
            self.err(
                label.range(),
                E_CHAN,
                format!(
                    "`{}` is not a member of an Enum declared in this module",
                    crate::short(label)
                ),
                "labels are enum members, e.g. `class Choice(Enum): GO = \"GO\"` and `Choice.GO`",
            );
            return;
        }
        let Some(sender) = sender else {
            self.err(
                arg.range(),
                E_INFER,
                "cannot tell which role sends this selection".to_owned(),
                format!(
                    "write `{} @ {a}` (the role that made the choice)",
                    crate::short(label)
                ),
            );
            return;
        };
        if sender != a && sender != b {
            self.err(
                arg.range(),
                E_CHAN,
                format!(
                    "{sender} selects on `{}`, which connects {a} and {b}",
                    crate::short(chan)
                ),
                format!("use a channel between {sender} and the role to inform"),
            );
            return;
        }
        if di && sender != a {
            self.err(
                e.range(),
                E_CHAN,
                format!(
                    "`{}` is a DiChannel from {a} to {b}; {sender} cannot select on it",
                    crate::short(chan)
                ),
                "use a `Channel` (both directions)",
            );
            return;
        }
        let receiver = if sender == a { b.clone() } else { a.clone() };
        self.direct.insert(a.clone());
        self.direct.insert(b.clone());
        self.special(
            e,
            Special::Select {
                chan: chan.range(),
                label: crate::short(label),
                sender,
                receiver,
            },
        );
        self.record(e, Loc::NoValue);
    }

    pub(super) fn check_args(
        &mut self,
        call: &ast::ExprCall,
        class: &ClassDecl,
        what: &str,
        params: &[crate::decls::Param],
        roles: &[String],
    ) {
        let args = &call.arguments;
        if args.args.iter().any(|a| a.is_starred_expr())
            || args.keywords.iter().any(|k| k.arg.is_none())
        {
            self.err(
                call.range(),
                E_UNSUP,
                format!("`*` or `**` arguments in a choreographic call (`{what}`)"),
                "pass arguments positionally or by name, one per parameter",
            );
            self.visit_args(call);
            return;
        }
        if args.args.len() > params.len() {
            self.err(
                call.range(),
                E_LOC,
                format!(
                    "`{what}` takes {} arguments, found {}",
                    params.len(),
                    args.args.len() + args.keywords.len()
                ),
                "pass one located value per parameter",
            );
            self.visit_args(call);
            return;
        }
        // Bind arguments to parameters as Python does; then check each in source order.
        let mut given = vec![false; params.len()];
        let mut bound: Vec<(&Expr, &crate::decls::Param)> = Vec::new();
        for ((a, p), g) in args.args.iter().zip(params).zip(&mut given) {
            bound.push((a, p));
            *g = true;
        }
        let mut bad = false;
        for k in args.keywords.iter() {
            let name = k.arg.as_ref().map_or("", |n| n.as_str());
            match params.iter().position(|p| p.name == name) {
                Some(i) if !given[i] => {
                    given[i] = true;
                    bound.push((&k.value, &params[i]));
                }
                found => {
                    bad = true;
                    let names: Vec<String> =
                        params.iter().map(|p| format!("`{}`", p.name)).collect();
                    self.err(
                        k.range(),
                        E_LOC,
                        if found.is_some() {
                            format!("argument `{name}` of `{what}` is given twice")
                        } else {
                            format!("`{what}` has no parameter `{name}`")
                        },
                        if names.is_empty() {
                            "it takes no arguments".to_owned()
                        } else {
                            format!("its parameters are {}", names.join(", "))
                        },
                    );
                }
            }
        }
        for (p, g) in params.iter().zip(&given) {
            if !g && p.default.is_none() {
                bad = true;
                self.err(
                    call.range(),
                    E_LOC,
                    format!("`{what}` is missing the argument `{}`", p.name),
                    "pass one located value per parameter",
                );
            }
        }
        if bad {
            self.visit_args(call);
            return;
        }
        for (a, p) in bound {
            let want = p.loc.subst(&|r| actual_role(class, roles, r));
            self.hint.push(None);
            let got = self.expr(a, Some(&want));
            self.hint.pop();
            if !self.d.accepts(&want, &got) {
                self.err(
                    a.range(),
                    E_LOC,
                    format!(
                        "argument `{}` of `{what}` must be at {want}, found {got}",
                        p.name
                    ),
                    if matches!(want, Loc::At(_)) {
                        format!("move the value to {want} with `ch.com(...)` first")
                    } else {
                        "pass a value with the parameter's location".to_owned()
                    },
                );
            }
        }
    }

    pub(super) fn chor_call(
        &mut self,
        e: &Expr,
        call: &ast::ExprCall,
        cname: &str,
        mname: &str,
        roles: Vec<String>,
        target: Target,
    ) -> Loc {
        let d = self.d;
        let Some(class) = d.class(cname) else {
            return Loc::Unknown;
        };
        let Some(m) = class.method(mname) else {
            self.err(
                e.range(),
                E_LOC,
                format!("`{cname}` has no method `{mname}`"),
                "choreographic calls name a method of the role class",
            );
            self.visit_args(call);
            return Loc::Unknown;
        };
        if matches!(target, Target::Static) && !m.is_static {
            self.err(
                e.range(),
                E_UNSUP,
                format!("`{cname}.{mname}` is an instance method"),
                format!("create an object first: `{cname}[...](...).{mname}(...)`"),
            );
        }
        if let (Target::Obj(_), Expr::Attribute(a)) = (&target, &*call.func) {
            self.lift(&call.func, &[&a.value]);
        }
        let what = format!("{cname}.{mname}");
        self.check_args(call, class, &what, &m.params, &roles);
        let mut kids = arg_exprs(call);
        kids.push(&call.func);
        self.lift(e, &kids);
        self.special(
            e,
            Special::Call {
                class: cname.to_owned(),
                method: mname.to_owned(),
                roles: roles.clone(),
                target,
            },
        );
        self.calls
            .push((cname.to_owned(), mname.to_owned(), roles.clone()));
        m.ret.subst(&|r| actual_role(class, &roles, r))
    }

    pub(super) fn ctor(
        &mut self,
        e: &Expr,
        call: &ast::ExprCall,
        cname: &str,
        roles: Vec<String>,
    ) -> Loc {
        let d = self.d;
        let class = d.class(cname).expect("checked");
        let params: &[crate::decls::Param] = class.method("__init__").map_or(&[], |m| &m.params);
        self.check_args(call, class, &format!("{cname}[...]"), params, &roles);
        self.lift(e, &arg_exprs(call));
        self.special(
            e,
            Special::Ctor {
                class: cname.to_owned(),
                roles: roles.clone(),
            },
        );
        if class.method("__init__").is_some() {
            self.calls
                .push((cname.to_owned(), "__init__".to_owned(), roles.clone()));
        }
        self.direct.extend(roles.iter().cloned());
        Loc::Obj(cname.to_owned(), roles)
    }
}

/// The argument values of a call in source order (positional, then keywords).
pub(crate) fn arg_exprs(call: &ast::ExprCall) -> Vec<&Expr> {
    call.arguments
        .args
        .iter()
        .chain(call.arguments.keywords.iter().map(|k| &k.value))
        .collect()
}
