//! `np.fft`'s multi-dimensional and inverse real transforms: `fft2`, `ifft2`, `fftn`, `ifftn`
//! (the shape is kept), `rfft2` / `rfftn` (the last transformed axis becomes `n // 2 + 1`),
//! `irfft` / `irfft2` / `irfftn` (the last transformed axis `m` becomes `2 * (m - 1)`), and
//! `rfftfreq(n)` (`n // 2 + 1` frequencies).
//!
//! **Trigger:** a call of one of them without `s`/`n`/`axes` (with one, the result is an array of
//! unknown shape). **Why:** image-processing packages filter in the frequency domain; an unknown
//! `fft2` made every value after it unknown.
//!
//! ```python
//! F = np.fft.fft2(np.zeros((4, 6)))    # (4, 6)
//! R = np.fft.rfft2(np.zeros((4, 6)))   # (4, 4)
//! x = np.fft.irfft(R)                  # (4, 6)
//! ```
use crate::{Dim, Shape};

/// The last axis of `a` mapped by `f` (unknown where its size is).
fn last_axis(a: &Shape, f: impl Fn(u64) -> Option<u64>) -> Shape {
    match a.dims() {
        Some(d) if !d.is_empty() => {
            let mut d = d.to_vec();
            let last = d.last_mut().expect("non-empty");
            *last = last.known().and_then(&f).map_or(Dim::Unknown, Dim::Known);
            Shape::Known(d)
        }
        _ => Shape::AnyRank,
    }
}

/// `rfft2` / `rfftn`: `n // 2 + 1` on the last axis.
pub fn rfftn(a: &Shape) -> Shape {
    last_axis(a, |n| Some(n / 2 + 1))
}

/// `irfft` / `irfft2` / `irfftn`: `2 * (m - 1)` on the last axis.
pub fn irfftn(a: &Shape) -> Shape {
    last_axis(a, |m| m.checked_sub(1).map(|k| 2 * k))
}

/// `rfftfreq(n)`: `n // 2 + 1` frequencies.
pub fn rfftfreq(n: u64) -> Shape {
    Shape::Known(vec![Dim::Known(n / 2 + 1)])
}
