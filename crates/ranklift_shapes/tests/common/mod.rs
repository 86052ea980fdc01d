//! Helpers shared by the integration tests.

/// A Python that can import NumPy: `$RANKLIFT_NUMPY_PYTHON`, `python3`, then the end-to-end
/// virtualenv (`scripts/horovod-env.sh`). `None` when none can.
pub fn numpy_python() -> Option<String> {
    let home = std::env::var("HOME").unwrap_or_default();
    let candidates = [
        std::env::var("RANKLIFT_NUMPY_PYTHON").unwrap_or_default(),
        "python3".to_owned(),
        format!("{home}/.cache/ranklift/hvd-venv/bin/python"),
    ];
    candidates.into_iter().filter(|c| !c.is_empty()).find(|c| {
        std::process::Command::new(c)
            .args(["-c", "import numpy"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}
