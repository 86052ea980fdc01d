//! The shared Python front end of ranklift.
//!
//! Everything here is independent of TensorFlow, NumPy or choreographies:
//!
//! - [`source`]: load a file's bytes and decode them (UTF-8 with or without BOM, PEP 263 `latin-1`
//!   cookies), remembering how to encode the text back byte-for-byte.
//! - [`parse`]: parse with Ruff's parser and turn syntax errors into [`Diagnostic`]s.
//! - [`diagnostics`]: one diagnostic type, rendered as `path:line:col: CODE message` plus snippet and
//!   hint (text), JSON or SARIF.
//! - [`edit`]: the edit engine — insertions and replacements on byte ranges, applied back to front,
//!   with a conflict check and a re-parse guard.
//! - [`project`]: walk a project (honouring `.gitignore`, also outside git), name its modules and
//!   resolve imports between them.
//!
//! - [`files`]: the excludes every directory walk honours (Ruff's defaults, `exclude`).
//! - [`fxhash`]: the fast hash maps every analysis uses (rustc-hash, under our names).
//! - [`builtins`]: Python's builtin names.
//!
//! Architecture invariant: this crate does no writing to disk; callers own all writes.

pub mod builtins;
pub mod config;
pub mod diagnostics;
pub mod edit;
pub mod files;
pub mod fxhash;
pub mod guard;
pub mod notebook;
pub mod parse;
pub mod project;
pub mod source;
pub mod wrap;

pub use diagnostics::{Diagnostic, Severity};
pub use edit::{Edit, EditError};
pub use parse::ParsedModule;
pub use project::{Module, Project};
pub use source::SourceFile;
