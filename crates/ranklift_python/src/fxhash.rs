//! The fast, non-cryptographic hash maps the analyses use (keys are ids, addresses and short
//! names from the program under analysis; SipHash's DoS resistance buys nothing here): rustc's
//! FxHash, from the `rustc-hash` crate, under the names the analyses use.

pub use rustc_hash::{FxHashMap as FastMap, FxHashSet as FastSet, FxHasher as FastHasher};
