//! Which `--nproc-per-node` the single-machine launch line takes: `gpu` (one process per GPU)
//! for a program that needs CUDA, `auto` (one per GPU, or CPU processes when there is none, as
//! torchrun decides) for one that can run without it.
//!
//! **Trigger:** the modules the run reaches. The program *can run on CPU* when it asks whether an
//! accelerator is there (`torch.cuda.is_available()`, `torch.accelerator.is_available()`,
//! `torch.backends.mps.is_available()`) or never uses CUDA at all: no `cuda` attribute
//! (`.cuda()`, `torch.cuda.*`) and no device string naming it (`"cuda"`, `"cuda:0"`).
//! Comments and docstrings do not count: a comment saying "no CUDA here" changes nothing.
//!
//! **Why:** `--nproc-per-node gpu` on a machine without GPUs starts no process at all; `auto` on
//! a GPU machine still starts one per GPU. A program that cannot run without CUDA is launched with
//! `gpu` so that a missing GPU is obvious at once.
//!
//! ```python
//! device = "cuda" if torch.cuda.is_available() else "cpu"   # -> --nproc-per-node auto
//! model = Net().cuda()                                      # alone -> --nproc-per-node gpu
//! ```
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Stmt};

#[derive(Default)]
struct Uses {
    checks_availability: bool,
    uses_cuda: bool,
}

impl<'a> Visitor<'a> for Uses {
    fn visit_stmt(&mut self, s: &'a Stmt) {
        // A docstring (or any bare string statement) is documentation, not a device.
        if let Stmt::Expr(e) = s
            && e.value.is_string_literal_expr()
        {
            return;
        }
        walk_stmt(self, s);
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        match e {
            Expr::Call(c) => {
                if let Expr::Attribute(f) = &*c.func
                    && f.attr.as_str() == "is_available"
                    && let Expr::Attribute(owner) = &*f.value
                    && matches!(owner.attr.as_str(), "cuda" | "accelerator" | "mps")
                {
                    self.checks_availability = true;
                }
            }
            Expr::Attribute(a) if a.attr.as_str() == "cuda" => self.uses_cuda = true,
            Expr::StringLiteral(s) => {
                let v = s.value.to_str();
                if v == "cuda" || v.starts_with("cuda:") {
                    self.uses_cuda = true;
                }
            }
            _ => {}
        }
        walk_expr(self, e);
    }
}

/// Can the program run without a GPU (launch with `auto`), judged from `suites`?
pub fn cpu_fallback<'a>(suites: impl IntoIterator<Item = &'a [Stmt]>) -> bool {
    let mut u = Uses::default();
    for suite in suites {
        for s in suite {
            u.visit_stmt(s);
        }
    }
    u.checks_availability || !u.uses_cuda
}

#[cfg(test)]
mod tests {
    use super::cpu_fallback;

    fn fallback(src: &str) -> bool {
        let parsed = ruff_python_parser::parse_module(src).unwrap();
        cpu_fallback([&parsed.suite()[..]])
    }

    #[test]
    fn availability_checks_and_cuda_free_programs_fall_back_to_cpu() {
        assert!(fallback(
            "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        ));
        assert!(fallback(
            "if torch.accelerator.is_available():\n    x = x.to(torch.accelerator.current_accelerator())\n"
        ));
        assert!(fallback("model = Net()\nmodel(x)\n"));
    }

    #[test]
    fn a_program_that_needs_cuda_does_not() {
        assert!(!fallback("model = Net().cuda()\n"));
        assert!(!fallback("x = x.to('cuda:0')\n"));
        assert!(!fallback("torch.cuda.manual_seed(0)\n"));
    }

    #[test]
    fn comments_and_docstrings_change_nothing() {
        // The text names `cuda.is_available()` twice; the code needs CUDA.
        assert!(!fallback(
            "\"\"\"Falls back to CPU when torch.cuda.is_available() is false? No.\"\"\"\n# torch.cuda.is_available()\nmodel = Net().cuda()\n"
        ));
        // A CPU program whose comment and docstring mention CUDA.
        assert!(fallback(
            "\"\"\"Trains on cuda.\"\"\"\n# no .cuda() here\nmodel = Net()\n"
        ));
    }
}
