//! Python 3.11's builtin names (`data/python_builtins.txt`, recorded from CPython by
//! `crates/ranklift_shapes/data/gen_python_names.py`), for analyses that must tell an undefined
//! name from a builtin one.

use std::sync::LazyLock;

use crate::fxhash::FastSet;

static BUILTINS: LazyLock<FastSet<&'static str>> = LazyLock::new(|| {
    include_str!("../data/python_builtins.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect()
});

/// Is `name` a builtin of Python 3.11 (`len`, `print`, `ValueError`, `__name__`, ...)?
pub fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn knows_builtins() {
        assert!(super::is_builtin("print"));
        assert!(super::is_builtin("ZeroDivisionError"));
        assert!(!super::is_builtin("numpy"));
    }
}
