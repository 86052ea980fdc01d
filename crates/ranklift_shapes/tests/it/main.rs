//! Integration tests of `ranklift_shapes`: programs with recorded expectations, NumPy differential cases, the rules' examples, the standard library.
//!
//! One test binary for the crate (one link, not one per file); each file is a module.
mod budget;
mod common;
mod imported;
mod numpy_differential;
mod programs;
mod rule_examples;
mod seeds;
mod stdlib;
mod torch_programs;
