//! Library model: the `re` module — `split`, `findall`, `sub`, and whether `match` /
//! `fullmatch` / `search` find anything — on a known pattern and a known string, called from
//! the module or on a pattern `re.compile` made.
//!
//! **Trigger:** `re.split(pattern, string, maxsplit=0)`, `re.findall(pattern, string)`,
//! `re.sub(pattern, repl, string, count=0)` with a literal `repl`, `re.match(pattern,
//! string)` (and `fullmatch`, `search`), no `flags`; the pattern and the string known. The
//! same as methods of `re.compile(pattern)` (`p.split(string)`, ...).
//!
//! **Result:** what Python computes: the pieces (a capturing group's text between them, `None`
//! for a group that took no part), the matches (each group's text, a tuple of them for several
//! groups), the replaced string; `None` when `match` finds nothing (a match found is an object
//! the analysis does not follow). Unknown (a list of strings, a string) when a pattern uses
//! what Python and the engine here read differently or cannot run: back-references,
//! look-around, `$` on text with line breaks, nested or set-operation classes, a `\`-escape in
//! `repl` — or is longer than 256 bytes, or compiles to more than 64 KiB.
//!
//! **Why:** models decode their architecture from strings with `re` (EfficientNet's and
//! timm's block definitions: `re.split(r"(\d.*)", "k3")` → `["k", "3", ""]`, the kernel size);
//! left unknown, every layer built from one was unknown.
//!
//! ```python
//! key, value = re.split(r"(\d.*)", "e6")[:2]
//! expand = int(value)  # 6
//! ```
use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::{FxMap, State};
use super::value::{Seq, Value};

/// Patterns longer than this (bytes) are not compiled.
const MAX_PATTERN: usize = 256;
/// Strings longer than this (bytes) are not searched.
const MAX_SUBJECT: usize = 1 << 16;
/// The compiled program's size bound (bytes).
const SIZE_LIMIT: usize = 1 << 16;

/// Attribute `attr` of the module `re`: a function modelled here, or unknown.
pub(crate) fn attribute(attr: &str) -> Value {
    const MODELLED: [&str; 7] = [
        "split",
        "findall",
        "sub",
        "match",
        "fullmatch",
        "search",
        "compile",
    ];
    match MODELLED.iter().find(|f| **f == attr) {
        Some(f) => Value::Builtin(super::value::Builtin::Re(f)),
        None => Value::Top,
    }
}

/// `pattern` compiled, when Python's meaning of it is the engine's here.
fn compile(pattern: &str, subject: &str) -> Option<regex::Regex> {
    if subject.len() > MAX_SUBJECT
        // Python: `$` also matches before a final line break.
        || (pattern.contains('$') && subject.contains('\n'))
        // Here: nested classes and set operations; Python reads those characters literally.
        || ["[[", "&&", "--", "~~"].iter().any(|s| pattern.contains(s))
    {
        return None;
    }
    // Compiled once per pattern and thread: a test's loop calling `re.match` with one
    // pattern compiled it at every pass (a tenth of a FITS test file's analysis).
    thread_local! {
        static COMPILED: std::cell::RefCell<FxMap<Box<str>, Option<regex::Regex>>> =
            std::cell::RefCell::default();
    }
    COMPILED.with_borrow_mut(|cache| {
        if let Some(r) = cache.get(pattern) {
            return r.clone();
        }
        if cache.len() >= COMPILED_PATTERNS {
            cache.clear();
        }
        let r = regex::RegexBuilder::new(pattern)
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(SIZE_LIMIT)
            .build()
            .ok();
        cache.insert(pattern.into(), r.clone());
        r
    })
}

/// Patterns kept compiled per thread (the cache starts over when full).
const COMPILED_PATTERNS: usize = 512;

fn text(s: &str) -> Value {
    Value::Str(Some(s.into()))
}

fn group(m: Option<regex::Match<'_>>) -> Value {
    m.map_or(Value::None, |m| text(m.as_str()))
}

/// The method kind of a pattern `re.compile` made (its receiver the pattern's text).
pub(crate) const PATTERN: &str = "<re pattern>";

/// Attribute `attr` of the compiled pattern `pattern`: a modelled method, its text, or unknown.
pub(crate) fn pattern_attribute(pattern: &Value, attr: &str) -> Value {
    match attr {
        "split" | "findall" | "sub" | "match" | "fullmatch" | "search" => {
            Value::Method(Box::new(pattern.clone()), format!("<re {attr}>").into())
        }
        "pattern" => pattern.clone(),
        _ => Value::Top,
    }
}

impl Interp<'_> {
    /// `pattern.name(args)` for a method `pattern_attribute` gave (`name` is `<re split>`...):
    /// the module's function with the pattern first.
    pub(crate) fn call_pattern_method(
        &mut self,
        pattern: &Value,
        name: &str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let f = name.trim_start_matches("<re ").trim_end_matches('>');
        let Value::Builtin(super::value::Builtin::Re(f)) = attribute(f) else {
            return Value::Top;
        };
        let mut full = args.clone();
        full.pos.insert(0, pattern.clone());
        self.call_re(f, &full, range, st)
    }

    /// `re.<attr>(args)` for a function `attribute` gave.
    pub(crate) fn call_re(
        &mut self,
        attr: &str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let unknown = |attr: &str| match attr {
            "split" | "findall" => None,
            "sub" => Some(Value::Str(None)),
            _ => Some(Value::Top),
        };
        let s = |v: Option<&Value>| match v {
            Some(Value::Str(Some(s))) => Some(s.clone()),
            _ => None,
        };
        // `sub(pattern, repl, string, count, flags)`, `split(pattern, string, maxsplit,
        // flags)`, the others `(pattern, string, flags)`.
        if attr == "compile" {
            let flags = args.get(1, "flags");
            return match args.get(0, "pattern") {
                Some(p @ Value::Str(Some(_)))
                    if flags.is_none_or(|v| v.as_int().and_then(|i| i.constant()) == Some(0)) =>
                {
                    Value::Method(Box::new(p.clone()), PATTERN.into())
                }
                _ => Value::Top,
            };
        }
        let (subject_at, flags_at) = match attr {
            "sub" => (2, 4),
            "split" => (1, 3),
            _ => (1, 2),
        };
        let flags_given = match args.get(flags_at, "flags") {
            None => false,
            Some(v) => v.as_int().and_then(|i| i.constant()) != Some(0),
        };
        let pattern = s(args.get(0, "pattern"));
        let subject = s(args.get(subject_at, "string"));
        // `match` anchors at the start, `fullmatch` at both ends: whether any way of matching
        // does (Python backtracks to find one), not only the leftmost-first match.
        let anchored = |p: &str| match attr {
            "match" => format!(r"\A(?:{p})"),
            "fullmatch" => format!(r"\A(?:{p})\z"),
            _ => p.to_owned(),
        };
        let re = match (&pattern, &subject) {
            (Some(p), Some(subj)) if !args.unknown && !flags_given && p.len() <= MAX_PATTERN => {
                compile(&anchored(p), subj)
            }
            _ => None,
        };
        let (Some(re), Some(subject)) = (re, subject) else {
            // A pattern not known to be a string may be bytes (`pat.encode()`), whose results
            // are bytes; `findall` with groups gives tuples: unknown, not strings.
            let strings = pattern
                .as_deref()
                .is_some_and(|p| attr != "findall" || !p.contains('('));
            return match unknown(attr) {
                _ if !strings => Value::Top,
                Some(v) => v,
                None => self.str_list(None, range, st),
            };
        };
        let count = |i: usize, name: &str| match args.get(i, name) {
            None => Some(0),
            Some(v) => v.as_int().and_then(|i| i.constant()),
        };
        match attr {
            "split" => {
                let Some(max) = count(2, "maxsplit") else {
                    return self.str_list(None, range, st);
                };
                let mut pieces = Vec::new();
                let mut last = 0;
                for (n, caps) in re.captures_iter(&subject).enumerate() {
                    if max > 0 && n as i64 >= max {
                        break;
                    }
                    let whole = caps.get(0).expect("group 0 is the match");
                    pieces.push(text(&subject[last..whole.start()]));
                    pieces.extend(caps.iter().skip(1).map(group));
                    last = whole.end();
                }
                pieces.push(text(&subject[last..]));
                self.str_list(Some(pieces), range, st)
            }
            "findall" => {
                let groups = re.captures_len() - 1;
                let found = re
                    .captures_iter(&subject)
                    .map(|caps| {
                        // A group that took no part is `""` in `findall`.
                        let g = |i: usize| text(caps.get(i).map_or("", |m| m.as_str()));
                        match groups {
                            0 => g(0),
                            1 => g(1),
                            n => {
                                Value::Tuple(Seq::Exact((1..=n).map(g).collect::<Vec<_>>().into()))
                            }
                        }
                    })
                    .collect();
                self.str_list(Some(found), range, st)
            }
            "sub" => {
                let (Some(repl), Some(n)) = (s(args.get(1, "repl")), count(3, "count")) else {
                    return Value::Str(None);
                };
                if repl.contains('\\') || n < 0 {
                    return Value::Str(None);
                }
                let out = re.replacen(&subject, n as usize, regex::NoExpand(&repl));
                if out.len() > MAX_SUBJECT {
                    return Value::Str(None);
                }
                text(&out)
            }
            // A match object is not followed; no match is `None`.
            _ => {
                if re.is_match(&subject) {
                    Value::Top
                } else {
                    Value::None
                }
            }
        }
    }
}
