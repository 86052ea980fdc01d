//! NumPy shape rules, one file per operation. Each takes shapes (and the operation's static
//! arguments) and returns an [`crate::Outcome`].

mod axis;
pub mod broadcast;
pub mod broadcast_to;
pub mod concatenate;
pub mod dot;
pub mod expand_squeeze;
pub mod fft_nd;
pub mod index_tricks;
pub mod linalg;
pub mod matmul;
pub mod reduce;
pub mod repeat_tile;
pub mod reshape;
pub mod to_scalar;
pub mod transpose;
pub mod truth;

pub use axis::normalize_axis;
