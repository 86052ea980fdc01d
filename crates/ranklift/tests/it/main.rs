//! Integration tests of the `ranklift` binary: the CLI, the server, choreo, shapes and distribute end to end.
//!
//! One test binary for the crate (one link, not one per file); each file is a module.
mod choreo;
mod cli;
mod collectives;
mod common;
mod config;
mod fuzz;
mod rules;
mod safety;
mod server;
mod shapes_cli;
mod stdlib;
mod tidy;
