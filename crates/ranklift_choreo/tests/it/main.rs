//! Integration tests of `ranklift_choreo`: fixes, operand forms, robustness.
//!
//! One test binary for the crate (one link, not one per file); each file is a module.
mod fixes;
mod operand_forms;
mod robustness;
