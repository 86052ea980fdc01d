//! `torch.einsum(equation, *operands)`.
//!
//! **Trigger:** `torch.einsum("bij,bjk->bik", a, b)` (operands as arguments or one list) with a
//! constant equation. **Result:** the output subscripts' sizes (the implicit output is the
//! ellipsis, then the subscripts seen once, in alphabetical order). **Finding:** PyTorch's own
//! errors (W522): an operand whose rank is not its subscripts' count, a subscript whose sizes
//! do not broadcast across operands, a repeated subscript of unequal sizes, more or fewer
//! operands than the equation names, an output subscript no input has:
//!
//! ```python
//! a, b = torch.randn(2, 3, 4), torch.randn(2, 5, 5)
//! torch.einsum("bij,bjk->bik", a, b)  # W522 einsum(): subscript j has size 5 for operand 1 which does not broadcast with previously seen size 4
//! torch.einsum("bij,bkj->bik", a, torch.randn(2, 5, 4))  # (2, 3, 5)
//! ```
//!
//! Why: attention and bilinear layers are written as `einsum`; a wrong letter is a shape error
//! that only shows when the forward pass runs. An operand of unknown rank or a size unknown to
//! the analysis makes the result (or that size) unknown, never an error.

use ruff_text_size::TextRange;

use super::tensor;
use crate::interp::call::Args;
use crate::interp::state::State;
use crate::interp::value::{Seq, Value};
use crate::interp::{Exc, Interp};
use crate::{Dim, Tri};

/// One operand's subscripts: the letters before and after an ellipsis (all in `before` when
/// there is none).
struct Spec {
    before: Vec<char>,
    after: Vec<char>,
    ellipsis: bool,
}

fn parse_spec(s: &str) -> Option<Spec> {
    let (before, after, ellipsis) = match s.split_once("...") {
        Some((b, a)) => (b, a, true),
        None => (s, "", false),
    };
    let letters = |t: &str| -> Option<Vec<char>> {
        t.chars()
            .map(|c| c.is_ascii_alphabetic().then_some(c))
            .collect()
    };
    Some(Spec {
        before: letters(before)?,
        after: letters(after)?,
        ellipsis,
    })
}

impl<'a> Interp<'a> {
    pub(crate) fn torch_einsum(&mut self, args: &Args, range: TextRange, st: &State) -> Value {
        let Some(Value::Str(Some(eq))) = args.pos.first() else {
            return Value::Top;
        };
        let operands: Vec<Value> = match &args.pos[1..] {
            [Value::Tuple(Seq::Exact(items))] => items.to_vec(),
            [Value::List(a)] => match st.list(*a) {
                Some(Seq::Exact(items)) => items.to_vec(),
                _ => return Value::Top,
            },
            rest => rest.to_vec(),
        };
        if args.unknown {
            return Value::Top;
        }
        let eq: String = eq.chars().filter(|c| !c.is_whitespace()).collect();
        let (lhs, rhs) = match eq.split_once("->") {
            Some((l, r)) => (l, Some(r)),
            None => (eq.as_str(), None),
        };
        let Some(specs) = lhs.split(',').map(parse_spec).collect::<Option<Vec<_>>>() else {
            return Value::Top;
        };
        let err = |this: &mut Self, m: String| {
            this.torch_error(range, "W522", Exc::Runtime, format!("einsum(): {m}"))
        };
        if operands.len() > specs.len() {
            return err(
                self,
                "more operands were provided than specified in the equation".into(),
            );
        }
        if operands.len() < specs.len() {
            return err(
                self,
                "fewer operands were provided than specified in the equation".into(),
            );
        }
        let mut sizes: Vec<(char, Dim)> = Vec::new();
        let mut counts: Vec<(char, usize)> = Vec::new();
        // The ellipsis dims, right-aligned across operands; `None` when unknown.
        let mut ell: Option<Vec<Dim>> = Some(Vec::new());
        for (i, (spec, op)) in specs.iter().zip(&operands).enumerate() {
            let Value::Tensor(s) = op else {
                return Value::Top;
            };
            let n = spec.before.len() + spec.after.len();
            let Some(d) = s.dims() else {
                ell = None;
                for c in spec.before.iter().chain(&spec.after) {
                    bump(&mut counts, *c);
                    if !sizes.iter().any(|(k, _)| k == c) {
                        sizes.push((*c, Dim::Unknown));
                    }
                }
                continue;
            };
            if !spec.ellipsis && n != d.len() {
                return err(
                    self,
                    format!(
                        "the number of subscripts in the equation ({n}) does not match the number of dimensions ({}) for operand {i} and no ellipsis was given",
                        d.len()
                    ),
                );
            }
            if spec.ellipsis && n > d.len() {
                return err(
                    self,
                    format!(
                        "the number of subscripts in the equation ({n}) is more than the number of dimensions ({}) for operand {i}",
                        d.len()
                    ),
                );
            }
            let k = d.len() - n;
            let lettered = spec
                .before
                .iter()
                .zip(&d[..spec.before.len()])
                .chain(spec.after.iter().zip(&d[spec.before.len() + k..]));
            // A subscript repeated within one operand (a diagonal) takes equal sizes.
            let mut own: Vec<(char, &Dim)> = Vec::new();
            for (c, dim) in lettered {
                if let Some((_, prev)) = own.iter().find(|(k, _)| k == c) {
                    if let (Some(a), Some(b)) = (dim.known(), prev.known())
                        && a != b
                    {
                        return err(
                            self,
                            format!(
                                "subscript {c} is repeated for operand {i} but the sizes don't match, {a} != {b}"
                            ),
                        );
                    }
                    continue;
                }
                own.push((*c, dim));
                bump(&mut counts, *c);
                match sizes.iter_mut().find(|(k, _)| k == c) {
                    None => sizes.push((*c, dim.clone())),
                    Some((_, seen)) => match (seen.is_one(), dim.is_one()) {
                        (Tri::Yes, _) => *seen = dim.clone(),
                        (_, Tri::Yes) => {}
                        _ => match (seen.known(), dim.known()) {
                            (Some(a), Some(b)) if a != b => {
                                return err(
                                    self,
                                    format!(
                                        "subscript {c} has size {b} for operand {i} which does not broadcast with previously seen size {a}"
                                    ),
                                );
                            }
                            _ if seen.same(dim) == Tri::Yes => {}
                            _ => *seen = seen.join(dim),
                        },
                    },
                }
            }
            if spec.ellipsis
                && let Some(e) = &mut ell
            {
                let mine = &d[spec.before.len()..spec.before.len() + k];
                // Right-aligned broadcasting; a conflict is left to run time.
                let len = e.len().max(mine.len());
                let mut out = vec![Dim::Known(1); len];
                for (j, slot) in out.iter_mut().enumerate() {
                    let a = (j + e.len()).checked_sub(len).map(|x| &e[x]);
                    let b = (j + mine.len()).checked_sub(len).map(|x| &mine[x]);
                    *slot = match (a, b) {
                        (Some(a), None) => a.clone(),
                        (None, Some(b)) => b.clone(),
                        (Some(a), Some(b)) if a.is_one() == Tri::Yes => b.clone(),
                        (Some(a), Some(b)) if b.is_one() == Tri::Yes || a.same(b) == Tri::Yes => {
                            a.clone()
                        }
                        _ => Dim::Unknown,
                    };
                }
                *e = out;
            }
        }
        let size = |c: char| sizes.iter().find(|(k, _)| *k == c).map(|(_, d)| d.clone());
        let mut out = Vec::new();
        match rhs {
            Some(r) => {
                let Some(spec) = parse_spec(r) else {
                    return Value::Top;
                };
                for (pos, c) in spec.before.iter().chain(&spec.after).enumerate() {
                    if spec.ellipsis && pos == spec.before.len() {
                        match &ell {
                            Some(e) => out.extend(e.iter().cloned()),
                            None => return Value::Top,
                        }
                    }
                    match size(*c) {
                        Some(d) => out.push(d),
                        None => {
                            return err(
                                self,
                                format!(
                                    "output subscript {c} does not appear in the equation for any input operand"
                                ),
                            );
                        }
                    }
                }
                if spec.ellipsis && spec.after.is_empty() {
                    match &ell {
                        Some(e) => out.extend(e.iter().cloned()),
                        None => return Value::Top,
                    }
                }
            }
            None => {
                match &ell {
                    Some(e) => out.extend(e.iter().cloned()),
                    None => return Value::Top,
                }
                let mut once: Vec<char> = counts
                    .iter()
                    .filter(|(_, n)| *n == 1)
                    .map(|(c, _)| *c)
                    .collect();
                once.sort_unstable();
                out.extend(once.into_iter().filter_map(size));
            }
        }
        tensor(out)
    }
}

fn bump(counts: &mut Vec<(char, usize)>, c: char) {
    match counts.iter_mut().find(|(k, _)| *k == c) {
        Some((_, n)) => *n += 1,
        None => counts.push((c, 1)),
    }
}
