//! A sweep of expression forms: in every local expression form, a role-free call beside
//! an operand located at one role runs at that role (either order), two role-free operands with
//! no located context still ask where (E-INFER, with a hint), and operands at two roles are a
//! mix (E-MIX). The role-erased program runs every case; which role runs the role-free part is
//! what the checker decides. (The pass fixture `role_free_operands.py` runs a sample of these
//! forms in threads and over TCP against the role-erased reference run.)

use std::sync::Arc;

const HEAD: &str = r#"from pychoral import Role, At, Channel, Ch2, entry

A = Role("A")
B = Role("B")

DOCS = ["x", "y", "z"]


def count(docs: list) -> int:
    return len(docs)


class T(Ch2[A, B]):
    @entry
    @staticmethod
    def main() -> None:
        ch: Channel[object, A, B] = Channel.open("ab")
        r: At[int, A] = 3 @ A
        q: At[int, B] = 4 @ B
        v = EXPR
        print(v)
"#;

const FORMS: &[(&str, &str)] = &[
    ("binary operator", "{x} + {y}"),
    ("comparison", "{x} == {y}"),
    ("chained comparison", "0 < {x} <= {y}"),
    ("boolean operator", "{x} > 0 and {y} > 0"),
    ("unary operator", "-({x} + {y})"),
    ("subscript", "[{x}, {y}][0]"),
    ("slice", "[1, 2, 3, 4][{x}:{y}]"),
    ("f-string", "f\"{{{x}}} {{{y}}}\""),
    ("conditional expression", "{x} if {x} > 1 else {y}"),
    ("tuple", "({x}, {y})"),
    ("list", "[{x}, {y}]"),
    ("set", "{{{x}, {y}}}"),
    ("dict", "{{'a': {x}, 'b': {y}}}"),
    ("call arguments", "max({x}, {y})"),
    ("keyword argument", "round({x}, ndigits={y})"),
    ("method receiver", "str({x}).zfill({y})"),
];

fn codes(expr: &str) -> Vec<String> {
    let text = HEAD.replace("EXPR", expr);
    match ranklift_choreo::compile("case.py", &Arc::<str>::from(text.as_str())) {
        Ok(_) => Vec::new(),
        Err(diags) => diags.into_iter().map(|d| d.code.to_owned()).collect(),
    }
}

fn fill(form: &str, x: &str, y: &str) -> String {
    form.replace("{x}", x)
        .replace("{y}", y)
        .replace("{{", "{")
        .replace("}}", "}")
}

#[test]
fn role_free_operands_follow_the_located_one_in_every_form() {
    let mut bad = Vec::new();
    for (name, form) in FORMS {
        for (x, y, want) in [
            ("r", "count(DOCS)", None),
            ("count(DOCS)", "r", None),
            ("count(DOCS)", "count(DOCS)", Some("E-INFER")),
            ("r", "q", Some("E-MIX")),
        ] {
            let expr = fill(form, x, y);
            let got = codes(&expr);
            let ok = match want {
                None => got.is_empty(),
                Some(code) => !got.is_empty() && got.iter().all(|c| c == code),
            };
            if !ok {
                bad.push(format!("{name}: `{expr}`: want {want:?}, got {got:?}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
