//! The engine a verified program runs on: how `--verify` starts N workers of it, which recorder
//! they load, and how their output is told apart.
//!
//! - `torchrun` (PyTorch → DistributedDataParallel): `PY -m torch.distributed.run --standalone`,
//!   each worker's output in its own log file (`--redirects 3`);
//! - Horovod (TensorFlow ≤ 2.15): `PY -m horovod.runner.launch -np N --gloo` (what `horovodrun`
//!   runs), every line prefixed `[RANK]<stdout>:` / `[RANK]<stderr>:`;
//! - `ranklift launch` (TensorFlow ≥ 2.16 through `ranklift_tf`): this binary's own launcher, the
//!   same prefixes, its workers in a network namespace of their own.
//!
//! Example: `ranklift verify train_hvd.py --original train.py` reads `import horovod` in the
//! distributed program and runs it with Horovod's launcher and the TensorFlow recorder.

use std::path::Path;

/// The recorder of PyTorch processes, written as `sitecustomize.py`.
const PROBE_TORCH: &str = include_str!("../../../python/ranklift/verify_probe.py");
/// The recorder of TensorFlow processes, written as `sitecustomize.py`.
const PROBE_TF: &str = include_str!("../../../python/ranklift/verify_probe_tf.py");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Torchrun,
    Horovod,
    RankliftLaunch,
}

impl Engine {
    /// The engine of a distributed program, from its text: Horovod's or `ranklift_tf`'s import,
    /// else torch.distributed.
    pub fn of_source(text: &str) -> Engine {
        let imports = |m: &str| {
            text.lines().any(|l| {
                let l = l.trim_start();
                (l.starts_with("import ") || l.starts_with("from ")) && l.contains(m)
            })
        };
        if imports("ranklift_tf") {
            Engine::RankliftLaunch
        } else if imports("horovod") {
            Engine::Horovod
        } else {
            Engine::Torchrun
        }
    }

    /// The engine of a rewrite, from the launch command ranklift printed for it.
    pub fn of_launcher(first_word: Option<&str>) -> Engine {
        match first_word {
            Some("horovodrun") => Engine::Horovod,
            Some("ranklift") => Engine::RankliftLaunch,
            _ => Engine::Torchrun,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Torchrun => "torchrun",
            Engine::Horovod => "horovodrun",
            Engine::RankliftLaunch => "ranklift launch",
        }
    }

    /// What carries the collectives on a CPU run.
    pub fn cpu_backend(self) -> &'static str {
        match self {
            Engine::Torchrun | Engine::Horovod => "gloo",
            Engine::RankliftLaunch => "TensorFlow's collectives",
        }
    }

    pub fn probe(self) -> &'static str {
        match self {
            Engine::Torchrun => PROBE_TORCH,
            Engine::Horovod | Engine::RankliftLaunch => PROBE_TF,
        }
    }

    /// A check that the Python has what the engine needs, run before anything else, and what to
    /// say when it has not. It looks the packages up without importing them (importing torch or
    /// TensorFlow takes seconds, and every run imports them again): Horovod counts only with its
    /// TensorFlow operations built (`horovod/tensorflow/mpi_lib*`).
    pub fn needs(self) -> (&'static str, &'static str) {
        match self {
            Engine::Torchrun => (
                "import importlib.util as u, sys\n\
                 sys.exit(0 if u.find_spec('torch') else 1)",
                "torch is not installed",
            ),
            Engine::Horovod => (
                "import importlib.util as u, pathlib, sys\n\
                 h = u.find_spec('horovod')\n\
                 ops = h and any(next(pathlib.Path(p, 'tensorflow').glob('mpi_lib*'), None) \
                 for p in h.submodule_search_locations or ())\n\
                 sys.exit(0 if u.find_spec('tensorflow') and ops else 1)",
                "Horovod (with TensorFlow) is not installed",
            ),
            Engine::RankliftLaunch => (
                "import importlib.util as u, sys\n\
                 sys.exit(0 if u.find_spec('tensorflow') else 1)",
                "TensorFlow is not installed",
            ),
        }
    }

    /// The environment torchrun gives a lone worker, for the 1-process run: that run starts the
    /// worker itself (`PY -u MAIN`) with the variables `torch.distributed.run --standalone
    /// --nproc-per-node 1` sets, the rendezvous store served by the worker on `port`. The
    /// launcher's own start-up (it imports torch) would otherwise double that run's time; the
    /// 2-process run goes through the real launcher. `None` for the other engines.
    pub fn lone_worker_env(self, port: u16) -> Option<Vec<(&'static str, String)>> {
        if self != Engine::Torchrun {
            return None;
        }
        let one = || "1".to_owned();
        let zero = || "0".to_owned();
        Some(vec![
            ("RANK", zero()),
            ("LOCAL_RANK", zero()),
            ("GROUP_RANK", zero()),
            ("ROLE_RANK", zero()),
            ("ROLE_NAME", "default".to_owned()),
            ("WORLD_SIZE", one()),
            ("LOCAL_WORLD_SIZE", one()),
            ("GROUP_WORLD_SIZE", one()),
            ("ROLE_WORLD_SIZE", one()),
            ("MASTER_ADDR", "127.0.0.1".to_owned()),
            ("MASTER_PORT", port.to_string()),
            ("TORCHELASTIC_RESTART_COUNT", zero()),
            ("TORCHELASTIC_MAX_RESTARTS", zero()),
            ("TORCHELASTIC_RUN_ID", "ranklift-verify".to_owned()),
            ("TORCHELASTIC_USE_AGENT_STORE", "False".to_owned()),
        ])
    }

    /// The command (program, arguments) that runs `main` on `n` local workers, each printing
    /// into `logs` (torchrun) or into the launcher's own output (the others).
    pub fn argv(self, python: &Path, main: &str, n: u32, logs: &Path) -> (String, Vec<String>) {
        let py = python.display().to_string();
        let n = n.to_string();
        let words = |ws: &[&str]| ws.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match self {
            Engine::Torchrun => (
                py,
                words(&[
                    "-m",
                    "torch.distributed.run",
                    "--standalone",
                    "--nproc-per-node",
                    &n,
                    "--log-dir",
                    &logs.display().to_string(),
                    "--redirects",
                    "3",
                    main,
                ]),
            ),
            Engine::Horovod => (
                py.clone(),
                words(&[
                    "-m",
                    "horovod.runner.launch",
                    "-np",
                    &n,
                    "--gloo",
                    "-H",
                    &format!("localhost:{n}"),
                    &py,
                    main,
                ]),
            ),
            Engine::RankliftLaunch => (
                std::env::current_exe()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|_| "ranklift".into()),
                words(&["launch", "-n", &n, &py, main]),
            ),
        }
    }
}

/// Each rank's stdout and stderr from a launcher's output, where every piece a worker wrote is
/// prefixed `[RANK]<stdout>:` or `[RANK]<stderr>:` (a piece runs to its line's end, or to the next
/// prefix: a `\r` redraw or a long line comes in several); other text is the launcher's own and
/// goes to `launcher`.
pub fn demux(text: &str, n: u32) -> (Vec<String>, Vec<String>, String) {
    let mut out = vec![String::new(); n as usize];
    let mut err = vec![String::new(); n as usize];
    let mut launcher = String::new();
    let mut rest = text;
    while let Some((at, rank, is_err, len)) = find_prefix(rest) {
        launcher.push_str(&rest[..at]);
        let body = &rest[at + len..];
        let next = find_prefix(body).map_or(body.len(), |p| p.0);
        let end = body[..next].find('\n').map_or(next, |i| i + 1);
        match (is_err, rank < out.len()) {
            (false, true) => out[rank].push_str(&body[..end]),
            (true, true) => err[rank].push_str(&body[..end]),
            (_, false) => launcher.push_str(&rest[at..at + len + end]),
        }
        rest = &body[end..];
    }
    launcher.push_str(rest);
    (out, err, launcher)
}

/// The first `[RANK]<stdout>:` or `[RANK]<stderr>:` in `s`: (offset, rank, is stderr, length).
fn find_prefix(s: &str) -> Option<(usize, usize, bool, usize)> {
    let mut from = 0;
    while let Some(i) = s[from..].find('[') {
        let at = from + i;
        let tail = &s[at + 1..];
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && digits < 8 {
            let after = &tail[digits..];
            for (tag, is_err) in [("]<stdout>:", false), ("]<stderr>:", true)] {
                if after.starts_with(tag)
                    && let Ok(rank) = tail[..digits].parse()
                {
                    return Some((at, rank, is_err, 1 + digits + tag.len()));
                }
            }
        }
        from = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_from_the_programs_imports() {
        assert_eq!(
            Engine::of_source("import ranklift_tf as hvd\n"),
            Engine::RankliftLaunch
        );
        assert_eq!(
            Engine::of_source("import horovod.tensorflow.keras as hvd\n"),
            Engine::Horovod
        );
        assert_eq!(
            Engine::of_source("import torch.distributed as dist\n# horovod\n"),
            Engine::Torchrun
        );
    }

    /// The checks run by a real Python against packages laid out on its path: what is installed
    /// passes, what is missing (Horovod without its TensorFlow operations) fails.
    #[test]
    fn needs_finds_packages_without_importing_them() {
        let dir = tempfile::tempdir().unwrap();
        let run = |engine: Engine| {
            std::process::Command::new("python3")
                .args(["-S", "-c", engine.needs().0])
                .env("PYTHONPATH", dir.path())
                .status()
                .unwrap()
                .code()
        };
        assert_eq!(run(Engine::Torchrun), Some(1));
        assert_eq!(run(Engine::RankliftLaunch), Some(1));
        // Packages whose import would fail: found, not imported.
        for pkg in ["torch", "tensorflow", "horovod/tensorflow"] {
            std::fs::create_dir_all(dir.path().join(pkg)).unwrap();
            std::fs::write(
                dir.path().join(pkg).join("__init__.py"),
                "raise ImportError",
            )
            .unwrap();
        }
        assert_eq!(run(Engine::Torchrun), Some(0));
        assert_eq!(run(Engine::RankliftLaunch), Some(0));
        assert_eq!(
            run(Engine::Horovod),
            Some(1),
            "no TensorFlow operations built"
        );
        std::fs::write(
            dir.path().join("horovod/tensorflow/mpi_lib.cpython-311.so"),
            "",
        )
        .unwrap();
        assert_eq!(run(Engine::Horovod), Some(0));
    }

    #[test]
    fn lone_worker_env_is_torchruns() {
        let env = Engine::Torchrun.lone_worker_env(29511).unwrap();
        let get = |k: &str| env.iter().find(|(n, _)| *n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("WORLD_SIZE"), Some("1"));
        assert_eq!(get("MASTER_PORT"), Some("29511"));
        // The worker serves the store itself ("True" would make it wait for a launcher's).
        assert_eq!(get("TORCHELASTIC_USE_AGENT_STORE"), Some("False"));
        assert!(Engine::Horovod.lone_worker_env(1).is_none());
    }

    #[test]
    fn output_split_by_rank_and_stream() {
        let text = "[0]<stdout>:epoch 1\n[1]<stderr>:warn\n[0]<stdout>:  50%\r[0]<stdout>: 100%\nlauncher says\n";
        let (out, err, launcher) = demux(text, 2);
        assert_eq!(out[0], "epoch 1\n  50%\r 100%\n");
        assert_eq!(err[1], "warn\n");
        assert_eq!(out[1], "");
        assert_eq!(launcher, "launcher says\n");
        let (_, _, launcher) = demux("starting\n[0]<stdout>:x\n", 1);
        assert_eq!(launcher, "starting\n");
        // A rank out of range, or a bracket that is no prefix, stays text.
        let (out, _, launcher) = demux("[7]<stdout>:x [a]<stdout>:\n", 2);
        assert_eq!(launcher, "[7]<stdout>:x [a]<stdout>:\n");
        assert!(out.iter().all(String::is_empty));
    }
}
