//! Helpers shared by the integration tests.

/// A Python whose NumPy has this major version: `$RANKLIFT_NUMPY<major>_PYTHON`,
/// `$RANKLIFT_NUMPY_PYTHON`, `python3`, then the cached virtualenvs (`scripts/numpy-env.sh`).
pub fn numpy_python_for(major: u8) -> Option<String> {
    let home = std::env::var("HOME").unwrap_or_default();
    let candidates = [
        std::env::var(format!("RANKLIFT_NUMPY{major}_PYTHON")).unwrap_or_default(),
        std::env::var("RANKLIFT_NUMPY_PYTHON").unwrap_or_default(),
        "python3".to_owned(),
        format!("{home}/.cache/ranklift/numpy{major}-venv/bin/python"),
        format!("{home}/.cache/ranklift/hvd-venv/bin/python"),
    ];
    let check =
        format!("import numpy, sys; sys.exit(numpy.__version__.split('.')[0] != '{major}')");
    candidates.into_iter().filter(|c| !c.is_empty()).find(|c| {
        std::process::Command::new(c)
            .args(["-c", &check])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}
