//! Axis arguments, as NumPy normalises them (`AxisError` when out of bounds).

/// Normalise `axis` for an array of `ndim` dimensions: negative axes count from the end.
/// The error is NumPy's `AxisError` message.
pub fn normalize_axis(axis: i64, ndim: usize) -> Result<usize, String> {
    let n = ndim as i64;
    if axis < -n || axis >= n {
        return Err(format!(
            "axis {axis} is out of bounds for array of dimension {ndim}"
        ));
    }
    Ok(if axis < 0 {
        (axis + n) as usize
    } else {
        axis as usize
    })
}
