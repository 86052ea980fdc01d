//! `ranklift distribute PATH --verify` and `ranklift verify DISTRIBUTED --original PATH`: run the
//! original and the distributed program with the user's Python, and judge them
//! (`ranklift_distribute::verify`).
//!
//! Safety: everything runs in a scratch directory that is removed afterwards — a copy of the
//! original project and a copy of the rewrite (`crate::copy_tree`), each run starting inside its
//! copy, so relative writes land there. The recorder (`python/ranklift/verify_probe.py`, loaded
//! as `sitecustomize`) redirects writes outside the copy into the scratch directory. Each run is
//! its own process group, killed whole at `--timeout`. The rewrite's 1-process and 2-process runs
//! each start from their own copy of it. Nothing here opens a socket but to find a free local
//! port for a lone torchrun worker's store; torchrun's `--standalone` rendezvous binds its own.
//!
//! Exit codes: 0 every check passed (or could not be decided, said as such), 1 a check failed,
//! 2 the verification could not run (no torch for that Python, the original itself fails, a
//! TensorFlow target).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use crate::verify_engine::{Engine, demux};
use ranklift_distribute::verify::{self, Check, Evidence, Exit, Record, Run, Status};

/// What every recorder shares (which process records, writes, prints), imported by each.
const RECORD: &str = include_str!("../../../python/ranklift/verify_record.py");
/// The seeded stand-ins for downloaded datasets (`--synthetic-data`), imported by the recorder.
const SYNTHETIC: &str = include_str!("../../../python/ranklift/synthetic_data.py");

#[derive(clap::Args, Clone)]
pub struct VerifyArgs {
    /// Optimizer steps each run takes before it is stopped (at the end of the pass over the
    /// training data in which the budget is reached); 0 runs the programs to their end.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub verify_steps: u32,
    /// The Python that runs the programs. [default: $RANKLIFT_PYTHON, else python3]
    #[arg(long, value_name = "PY")]
    pub python: Option<PathBuf>,
    /// Seconds each run may take; a run still going then is stopped and its ranks named.
    #[arg(long, default_value_t = 600, value_name = "SECONDS")]
    pub timeout: u64,
    /// Where the rewrite runs: `cpu` (gloo, GPUs hidden) or `cuda` (the program's own choice).
    #[arg(long, value_enum, default_value = "cpu")]
    pub device: Device,
    /// Answer the standard downloading datasets (torchvision's MNIST, FashionMNIST, KMNIST,
    /// CIFAR10/100, SVHN, ImageFolder; keras.datasets; urllib/requests downloads) with seeded
    /// stand-ins of the same shapes, without editing the program: verify where the data is not.
    #[arg(long)]
    pub synthetic_data: bool,
    /// Arguments for the program, after `--` (each run gets the same).
    #[arg(last = true, value_name = "PROGRAM_ARGS")]
    pub program_args: Vec<String>,
}

#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum Device {
    Cpu,
    Cuda,
}

/// `ranklift verify`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  ranklift verify train_ddp.py --original train.py
  ranklift verify project-ddp/ --original project/ --main train.py --verify-steps 0
  ranklift verify train_ddp.py --original train.py -- --epochs 1 --data ./data

This RUNS both programs (the original on 1 process, the distributed one on 1 and 2 processes
under the launcher of the engine it imports: torchrun, Horovod's, or `ranklift launch`; a lone
torchrun worker is started with torchrun's environment, without the launcher), in a
scratch copy of each project. Exit codes: 0 every check passed; 1 a check
failed; 2 could not verify.")]
pub struct Args {
    /// The distributed program: a script, or a project directory (with --main).
    distributed: PathBuf,
    /// The original, single-process program: a script, or a project directory.
    #[arg(long)]
    original: PathBuf,
    /// The main script, relative to each project directory.
    #[arg(long)]
    main: Option<String>,
    /// The rewrite multiplies learning rates by the number of processes (`--scale-lr linear`).
    #[arg(long)]
    scaled_lr: bool,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    verify: VerifyArgs,
}

#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Two prepared copies, ready to run.
pub struct Staged {
    scratch: tempfile::TempDir,
    original: PathBuf,
    rewrite: PathBuf,
    main: String,
    rewrite_main: String,
    lr_scaled: bool,
    shown: String,
    engine: Engine,
}

/// Files a project may have for its copy to be made (outside what `.gitignore` leaves linked).
const MAX_FILES: usize = 20_000;
const MAX_BYTES: u64 = 2 << 30;

fn too_large(root: &Path) -> Option<String> {
    let (mut files, mut bytes) = (0usize, 0u64);
    let above = ranklift_python::files::ParentIgnores::for_root(root, &|_, _| {});
    let base = root.to_path_buf();
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .git_ignore(true)
        .parents(false)
        .require_git(false)
        .filter_entry(move |e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            !matches!(e.file_name().to_str(), Some(".git" | "__pycache__"))
                && (e.depth() == 0 || !above.ignored(&base, e.path(), is_dir))
        })
        .build();
    for e in walker.flatten() {
        if e.file_type().is_some_and(|t| t.is_file()) {
            files += 1;
            bytes += e.metadata().map(|m| m.len()).unwrap_or(0);
            if files > MAX_FILES || bytes > MAX_BYTES {
                return Some(format!(
                    "{}: more than {MAX_FILES} files or {} GiB to copy; verify a project directory of its own",
                    root.display(),
                    MAX_BYTES >> 30
                ));
            }
        }
    }
    None
}

fn scratch_dir() -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix("ranklift-verify-")
        .tempdir()
        .map_err(|e| format!("cannot make a scratch directory: {e}"))
}

/// Copy `root` (with `changes` applied and `created` added) to `dest`.
fn copy(
    root: &Path,
    dest: &Path,
    changes: &HashMap<&str, &[u8]>,
    created: &[(&str, &[u8])],
) -> Result<(), String> {
    std::fs::create_dir_all(dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    crate::copy_tree::copy_project(root, dest, changes, &[])?;
    for (rel, bytes) in created {
        let target = dest.join(rel);
        if let Some(p) = target.parent() {
            std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        std::fs::write(&target, bytes).map_err(|e| format!("{rel}: {e}"))?;
    }
    Ok(())
}

/// Copy the project twice, before anything is written: as it is, and rewritten.
pub fn stage(
    project: &ranklift_python::Project,
    outcome: &ranklift_distribute::Outcome,
    lr_scaled: bool,
) -> Result<Staged, String> {
    let engine = match outcome.framework {
        ranklift_distribute::Framework::Torch => Engine::Torchrun,
        ranklift_distribute::Framework::Tensorflow => Engine::of_launcher(
            outcome
                .launch
                .as_ref()
                .and_then(|l| l.single.first())
                .map(String::as_str),
        ),
    };
    let main = outcome
        .main
        .clone()
        .ok_or("the rewrite names no main script")?;
    if let Some(why) = too_large(&project.root) {
        return Err(why);
    }
    let scratch = scratch_dir()?;
    let original = scratch.path().join("original");
    let rewrite = scratch.path().join("rewrite");
    copy(&project.root, &original, &HashMap::new(), &[])?;
    let changes = outcome.rewritten();
    let created = outcome.created();
    copy(&project.root, &rewrite, &changes, &created)?;
    Ok(Staged {
        scratch,
        original,
        rewrite,
        rewrite_main: main.clone(),
        shown: main.clone(),
        main,
        // The TensorFlow rewrite scales learning rates by the number of processes (Horovod's
        // convention) on its own: a written-out or named optimizer's rate (`scale_learning_rate`),
        // or the one an optimizer given by name gets (`keras_distributed_optimizer`).
        lr_scaled: lr_scaled
            || outcome.applied.iter().any(|a| {
                a.rule == "scale_learning_rate"
                    || (a.rule == "keras_distributed_optimizer" && a.message.contains("scaled"))
            }),
        engine,
    })
}

/// `ranklift verify DISTRIBUTED --original ORIGINAL`.
pub fn run(args: Args) -> ExitCode {
    let staged = (|| -> Result<Staged, String> {
        let split = |p: &Path| -> Result<(PathBuf, String), String> {
            let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
            if meta.is_dir() {
                let main = args
                    .main
                    .clone()
                    .ok_or_else(|| format!("{}: a directory needs --main SCRIPT", p.display()))?;
                Ok((p.to_path_buf(), main))
            } else {
                let dir = p
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .map_or(PathBuf::from("."), Path::to_path_buf);
                let name = p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                Ok((dir, name))
            }
        };
        let (orig_root, orig_main) = split(&args.original)?;
        let (dist_root, dist_main) = split(&args.distributed)?;
        for r in [&orig_root, &dist_root] {
            if let Some(why) = too_large(r) {
                return Err(why);
            }
        }
        let scratch = scratch_dir()?;
        let original = scratch.path().join("original");
        let rewrite = scratch.path().join("rewrite");
        copy(&orig_root, &original, &HashMap::new(), &[])?;
        copy(&dist_root, &rewrite, &HashMap::new(), &[])?;
        let text =
            std::fs::read(rewrite.join(&dist_main)).map_err(|e| format!("{dist_main}: {e}"))?;
        let engine = Engine::of_source(&String::from_utf8_lossy(&text));
        Ok(Staged {
            scratch,
            original,
            rewrite,
            shown: args.distributed.display().to_string(),
            main: orig_main,
            rewrite_main: dist_main,
            lr_scaled: args.scaled_lr,
            engine,
        })
    })();
    match staged {
        Ok(s) => execute(s, &args.verify, args.format),
        Err(e) => cannot(&e),
    }
}

pub fn cannot(why: &str) -> ExitCode {
    eprintln!(
        "ranklift: cannot verify: {}",
        crate::report::escape_text(why)
    );
    ExitCode::from(2)
}

/// The Python that runs the programs, and that it has what the engine needs.
fn python(args: &VerifyArgs, engine: Engine) -> Result<PathBuf, String> {
    let py = args
        .python
        .clone()
        .or_else(|| std::env::var_os("RANKLIFT_PYTHON").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("python3"));
    let mut cmd = Command::new(&py);
    let (import, missing) = engine.needs();
    cmd.args(["-c", import])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    match wait_for(&mut cmd, Duration::from_secs(120)) {
        Ok(Some(0)) => Ok(py),
        Ok(Some(_)) => Err(format!(
            "{missing} for {} (pass --python with the Python that runs your training)",
            py.display()
        )),
        Ok(None) => Err(format!(
            "{} did not run `{import}` within 120 s",
            py.display()
        )),
        Err(e) => Err(format!("{}: {e}", py.display())),
    }
}

/// Run `cmd` in a process group of its own; `None` when it was still running at the deadline
/// (then the whole group is killed).
fn wait_for(cmd: &mut Command, limit: Duration) -> std::io::Result<Option<i32>> {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    let mut child = cmd.spawn()?;
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait()? {
            use std::os::unix::process::ExitStatusExt;
            return Ok(Some(
                status
                    .code()
                    .unwrap_or_else(|| 128 + status.signal().unwrap_or(0)),
            ));
        }
        if Instant::now() >= deadline {
            // SAFETY: kill(2) on the child's own process group (its pid, made leader above).
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL);
            }
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

struct Plan<'a> {
    python: &'a Path,
    engine: Engine,
    scratch: &'a Path,
    args: &'a VerifyArgs,
    /// Past the step budget, passes over the training data run empty and the programs go on
    /// to their end (else each process ends at the budget's next pass).
    drain: bool,
}

impl Plan<'_> {
    /// The name of run `base`'s scratch directories: a second round, without draining, keeps
    /// its own.
    fn label(&self, base: &str) -> String {
        if self.drain || self.args.verify_steps == 0 {
            base.to_owned()
        } else {
            format!("{base}-stopped")
        }
    }

    /// The environment every run shares: the recorder first on PYTHONPATH (then the project's
    /// root), its settings, and the GPUs hidden for a CPU run.
    fn command(&self, label: &str, root: &Path, program: &str, argv: &[String]) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(argv).current_dir(root).stdin(Stdio::null());
        let probe = self.scratch.join("probe");
        let mut path = probe.into_os_string();
        // The project's root after the recorder: a script below it imports the project's
        // packages as an installed project would (`pip install -e .`); for a script at the root
        // it changes nothing (its directory comes first).
        path.push(":");
        path.push(root.as_os_str());
        if let Some(old) = std::env::var_os("PYTHONPATH").filter(|p| !p.is_empty()) {
            path.push(":");
            path.push(old);
        }
        let steps = self.args.verify_steps;
        let cut = if steps == 0 { 0 } else { steps.div_ceil(2) };
        let tmp = self.scratch.join("tmp").join(label);
        let _ = std::fs::create_dir_all(&tmp);
        cmd.env("PYTHONPATH", path)
            .env("PYTHONUNBUFFERED", "1")
            .env("RANKLIFT_VERIFY_OUT", self.scratch.join("rec").join(label))
            .env("RANKLIFT_VERIFY_ROOT", root)
            .env(
                "RANKLIFT_VERIFY_REDIRECT",
                self.scratch.join("outside").join(label),
            )
            .env("RANKLIFT_VERIFY_STEPS", steps.to_string())
            .env("RANKLIFT_VERIFY_PASS", cut.to_string())
            .env("RANKLIFT_VERIFY_DRAIN", if self.drain { "1" } else { "0" })
            .env("TMPDIR", tmp)
            .env_remove("RANKLIFT_VERIFY_RECORDER");
        if self.args.synthetic_data {
            // The real datasets' sizes: batches split as they will on the real data.
            cmd.env("RANKLIFT_VERIFY_SYNTHETIC", "1")
                .env("RANKLIFT_SYNTHETIC_CACHE", self.scratch.join("synthetic"))
                .env("RANKLIFT_OFFLINE_REAL_SIZES", "1");
        } else {
            cmd.env_remove("RANKLIFT_VERIFY_SYNTHETIC");
        }
        if self.args.device == Device::Cpu {
            cmd.env("CUDA_VISIBLE_DEVICES", "");
        }
        cmd
    }

    /// The original, one process.
    fn original(&self, root: &Path, main: &str) -> Run {
        let label = self.label("original");
        let rec = self.scratch.join("rec").join(&label);
        let _ = std::fs::create_dir_all(&rec);
        let py = self.python.display().to_string();
        let mut argv = vec![main.to_owned()];
        argv.extend(self.args.program_args.iter().cloned());
        let mut cmd = self.command(&label, root, &py, &argv);
        cmd.env("RANKLIFT_VERIFY_ROLE", "original");
        let out = self.scratch.join(format!("{label}.stdout"));
        let err = self.scratch.join(format!("{label}.stderr"));
        let files = (std::fs::File::create(&out), std::fs::File::create(&err));
        let (Ok(o), Ok(e)) = files else {
            return failed_to_start(1, "cannot create the scratch logs".into());
        };
        cmd.stdout(o).stderr(e);
        let started = Instant::now();
        let status = wait_for(&mut cmd, Duration::from_secs(self.args.timeout));
        let seconds = started.elapsed().as_secs_f64();
        let stdout = std::fs::read_to_string(&out).unwrap_or_default();
        let stderr = std::fs::read_to_string(&err).unwrap_or_default();
        let records = vec![read_record(&rec, 0)];
        let exit = match status {
            Err(e) => return failed_to_start(1, e.to_string()),
            Ok(Some(0)) => Exit::Ok,
            Ok(Some(code)) => Exit::Failed {
                rank: 0,
                code,
                stderr: user_traceback(&stderr, root),
            },
            Ok(None) => Exit::Timeout {
                seconds: self.args.timeout,
                stalled: vec![(0, heartbeat(&rec, 0))],
            },
        };
        Run {
            processes: 1,
            exit,
            records,
            stdout: vec![stdout],
            seconds,
        }
    }

    /// The rewrite on `n` workers of its engine.
    fn workers(&self, root: &Path, main: &str, n: u32) -> Run {
        let label = self.label(&format!("np{n}"));
        let rec = self.scratch.join("rec").join(&label);
        let logs = self.scratch.join("logs").join(&label);
        let _ = std::fs::create_dir_all(&rec);
        let _ = std::fs::create_dir_all(&logs);
        let lone = match n {
            1 => free_port().and_then(|port| self.engine.lone_worker_env(port)),
            _ => None,
        };
        let (program, mut argv) = match lone {
            Some(_) => (
                self.python.display().to_string(),
                vec!["-u".to_owned(), main.to_owned()],
            ),
            None => self.engine.argv(self.python, main, n, &logs),
        };
        argv.extend(self.args.program_args.iter().cloned());
        let mut cmd = self.command(&label, root, &program, &argv);
        cmd.env("RANKLIFT_VERIFY_ROLE", "worker")
            .env("OMP_NUM_THREADS", "1");
        if let Some(vars) = &lone {
            // Where torchrun's `--redirects 3` would have put the worker's output.
            let dir = logs.join("lone").join("attempt_0").join("0");
            let files = std::fs::create_dir_all(&dir).and_then(|()| {
                Ok((
                    std::fs::File::create(dir.join("stdout.log"))?,
                    std::fs::File::create(dir.join("stderr.log"))?,
                ))
            });
            let Ok((o, e)) = files else {
                return failed_to_start(n, "cannot create the scratch logs".into());
            };
            cmd.envs(vars.iter().map(|(k, v)| (k, v)))
                .stdout(o)
                .stderr(e);
        }
        // TensorFlow's rewrite broadcasts rank 0's initial weights; rank 1 starting from other
        // seeds makes a missing broadcast visible (DistributedDataParallel broadcasts on its own).
        if n > 1 && self.engine != Engine::Torchrun {
            cmd.env("RANKLIFT_VERIFY_DESYNC", "1");
        } else {
            cmd.env_remove("RANKLIFT_VERIFY_DESYNC");
        }
        // torchrun writes each worker's output to its own file; the other launchers prefix it.
        let combined = (logs.join("launcher.out"), logs.join("launcher.err"));
        if self.engine == Engine::Torchrun {
            if lone.is_none() {
                cmd.stdout(Stdio::null()).stderr(Stdio::null());
            }
        } else {
            let files = (
                std::fs::File::create(&combined.0),
                std::fs::File::create(&combined.1),
            );
            let (Ok(o), Ok(e)) = files else {
                return failed_to_start(n, "cannot create the scratch logs".into());
            };
            cmd.stdout(o).stderr(e);
        }
        let started = Instant::now();
        let status = wait_for(&mut cmd, Duration::from_secs(self.args.timeout));
        let seconds = started.elapsed().as_secs_f64();
        let records: Vec<Option<Record>> = (0..n).map(|r| read_record(&rec, r)).collect();
        let (stdout, logs_err, launcher) = if self.engine == Engine::Torchrun {
            (
                (0..n).map(|r| rank_log(&logs, r, "stdout")).collect(),
                (0..n).map(|r| rank_log(&logs, r, "stderr")).collect(),
                String::new(),
            )
        } else {
            let text = [&combined.0, &combined.1]
                .iter()
                .map(|p| read_bounded(p))
                .collect::<Vec<_>>()
                .join("");
            demux(&text, n)
        };
        let exit = match status {
            Err(e) => return failed_to_start(n, e.to_string()),
            Ok(Some(0)) => Exit::Ok,
            Ok(Some(_))
                if logs_err.iter().all(|e| !e.contains("Traceback"))
                    && !launcher.trim().is_empty() =>
            {
                // The launcher itself failed (no namespace, no free port): its words.
                Exit::Failed {
                    rank: 0,
                    code: 2,
                    stderr: format!(
                        "{} could not start the workers:\n{}",
                        self.engine.name(),
                        tail(&launcher, 12)
                    ),
                }
            }
            Ok(Some(code)) => {
                // The rank that raised first: one whose traceback is its own, not the
                // collective's report that a peer went away.
                let peer_gone = |s: &str| {
                    s.contains("Connection closed by peer")
                        || s.contains("Connection reset by peer")
                        || s.contains("remote worker crashing")
                        // Horovod's and TensorFlow's words for a collective a failed peer left.
                        || s.contains("Horovod has been shut down")
                        || s.contains("Collective ops is aborted")
                };
                let raised = |r: &u32| logs_err[*r as usize].contains("Traceback");
                let rank = (0..n)
                    .filter(raised)
                    .find(|&r| !peer_gone(&logs_err[r as usize]))
                    .or_else(|| (0..n).find(raised))
                    .unwrap_or(0);
                Exit::Failed {
                    rank,
                    code,
                    stderr: user_traceback(&logs_err[rank as usize], root),
                }
            }
            Ok(None) => Exit::Timeout {
                seconds: self.args.timeout,
                stalled: (0..n)
                    .filter(|&r| records[r as usize].is_none())
                    .map(|r| (r, heartbeat(&rec, r)))
                    .collect(),
            },
        };
        Run {
            processes: n,
            exit,
            records,
            stdout,
            seconds,
        }
    }
}

/// A TCP port free on the loopback interface now (the lone worker's rendezvous store binds it
/// a moment later).
fn free_port() -> Option<u16> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).ok()?;
    listener.local_addr().ok().map(|a| a.port())
}

fn failed_to_start(n: u32, why: String) -> Run {
    Run {
        processes: n,
        exit: Exit::Failed {
            rank: 0,
            code: 127,
            stderr: why,
        },
        records: Vec::new(),
        stdout: Vec::new(),
        seconds: 0.0,
    }
}

/// A record is read only up to this size (the recorder bounds what it keeps; a larger file is
/// not one it wrote).
const MAX_RECORD: u64 = 64 << 20;

fn read_record(dir: &Path, rank: u32) -> Option<Record> {
    let path = dir.join(format!("rank{rank}.json"));
    if std::fs::metadata(&path).ok()?.len() > MAX_RECORD {
        return None;
    }
    Record::from_json(&std::fs::read(path).ok()?).ok()
}

fn heartbeat(dir: &Path, rank: u32) -> usize {
    std::fs::read_to_string(dir.join(format!("rank{rank}.step")))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

/// At most the last 4 MiB of a log file.
fn read_bounded(path: &Path) -> String {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map_or(0, |m| m.len());
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(4 << 20)));
    let mut buf = Vec::new();
    let _ = f.take(4 << 20).read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// The last `n` lines of `s`.
fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A worker's log as torchrun `--redirects 3` leaves it: `<log-dir>/<run id>/attempt_0/<rank>/`.
fn rank_log(logs: &Path, rank: u32, stream: &str) -> String {
    let Ok(runs) = std::fs::read_dir(logs) else {
        return String::new();
    };
    for run in runs.flatten() {
        let p = run
            .path()
            .join("attempt_0")
            .join(rank.to_string())
            .join(format!("{stream}.log"));
        if let Ok(s) = std::fs::read_to_string(p) {
            return s;
        }
    }
    String::new()
}

/// The last traceback of `stderr`, cut to the program's own frames (paths shown relative to its
/// project) and the exception; other text's last lines when there is no traceback.
fn user_traceback(stderr: &str, root: &Path) -> String {
    // torchrun prefixes each line of a worker's error with `[rankN]:`.
    let unprefixed: String = stderr
        .lines()
        .map(|l| match l.strip_prefix("[rank") {
            Some(rest) => rest.split_once("]:").map_or(l, |(n, tail)| {
                if n.bytes().all(|b| b.is_ascii_digit()) {
                    tail.strip_prefix(' ').unwrap_or(tail)
                } else {
                    l
                }
            }),
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let stderr = unprefixed.as_str();
    let root = root.display().to_string();
    let Some(start) = stderr.rfind("Traceback (most recent call last):") else {
        let lines: Vec<&str> = stderr.lines().collect();
        return lines[lines.len().saturating_sub(8)..].join("\n");
    };
    let mut out = vec!["Traceback (most recent call last):".to_owned()];
    let mut skipped = 0;
    let mut lines = stderr[start..].lines().skip(1).peekable();
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("  File \"") {
            let mine = rest.starts_with(&root) && !rest.contains("site-packages");
            let code = lines.next_if(|l| l.starts_with("    "));
            if mine {
                out.push(format!(
                    "  File \"{}",
                    rest.replacen(&format!("{root}/"), "", 1)
                ));
                out.extend(code.map(str::to_owned));
            } else {
                skipped += 1;
            }
        } else if line.starts_with("    ") || line.trim_start().starts_with('^') {
            continue;
        } else {
            if skipped > 0 {
                out.push(format!("  ({skipped} frames in libraries)"));
                skipped = 0;
            }
            out.push(line.to_owned());
        }
        if out.len() > 40 {
            break;
        }
    }
    out.join("\n")
}

/// Run the three programs and print the verdict.
pub fn execute(s: Staged, args: &VerifyArgs, format: Format) -> ExitCode {
    let py = match python(args, s.engine) {
        Ok(p) => p,
        Err(e) => return cannot(&e),
    };
    let scratch = s.scratch.path();
    let probe = scratch.join("probe");
    if let Err(e) = std::fs::create_dir_all(&probe)
        .and_then(|()| std::fs::write(probe.join("sitecustomize.py"), s.engine.probe()))
        .and_then(|()| std::fs::write(probe.join("ranklift_verify_record.py"), RECORD))
        .and_then(|()| std::fs::write(probe.join("ranklift_synthetic_data.py"), SYNTHETIC))
    {
        return cannot(&format!("cannot write the recorder: {e}"));
    }
    let mut plan = Plan {
        python: &py,
        engine: s.engine,
        scratch,
        args,
        drain: args.verify_steps > 0,
    };
    let budget = match args.verify_steps {
        0 => "to the end".to_owned(),
        n => format!("{n} optimizer steps"),
    };
    if format == Format::Text {
        eprintln!(
            "ranklift: verifying {} ({budget}; {} on {}): the original on 1 process, the rewrite on 1 and under {} on 2",
            s.shown,
            if args.device == Device::Cpu {
                s.engine.cpu_backend()
            } else {
                "the program's backend"
            },
            if args.device == Device::Cpu {
                "CPU"
            } else {
                "its devices"
            },
            s.engine.name(),
        );
    }
    // Each run of the rewrite starts from the rewrite as written: the 2-process run gets its own
    // copy, made before the 1-process run writes into the first (a program that resumes from
    // a checkpoint it finds would otherwise resume from that run's).
    let rewrite_two = scratch.join("rewrite-2");
    if let Err(e) = copy(&s.rewrite, &rewrite_two, &HashMap::new(), &[]) {
        return cannot(&e);
    }
    // The original as it was, for a second round (below).
    let original_again = scratch.join("original-again");
    if plan.drain
        && let Err(e) = copy(&s.original, &original_again, &HashMap::new(), &[])
    {
        return cannot(&e);
    }
    // The original and the 1-process rewrite run side by side (one core each); the two ranks
    // then have both cores.
    let side_by_side = |plan: &Plan, original: &Path, rewrite: &Path| {
        std::thread::scope(|sc| {
            let one = sc.spawn(|| plan.workers(rewrite, &s.rewrite_main, 1));
            let original = plan.original(original, &s.main);
            (original, one.join())
        })
    };
    let (mut original, mut one) = side_by_side(&plan, &s.original, &s.rewrite);
    // A program whose code after the training loop needs a batch from every pass (a mean over
    // the epoch's batches) fails once the budget empties its passes: the original's own failure
    // says so, and every run is made again as it was before draining, each ending at the
    // budget's next pass (the rewrite from its copy the 2-process run has not yet touched).
    if plan.drain
        && original.exit != Exit::Ok
        && original.record(0).is_some_and(|r| r.drained.is_some())
    {
        let rewrite_again = scratch.join("rewrite-again");
        if let Err(e) = copy(&rewrite_two, &rewrite_again, &HashMap::new(), &[]) {
            return cannot(&e);
        }
        eprintln!(
            "ranklift: the original fails once the step budget empties its passes over the training data; running each program again, to the budget's next pass"
        );
        plan.drain = false;
        (original, one) = side_by_side(&plan, &original_again, &rewrite_again);
    }
    let Ok(one) = one else {
        return cannot("the 1-process run's thread panicked");
    };
    if original.exit != Exit::Ok {
        if std::env::var_os("RANKLIFT_VERIFY_KEEP").is_some() {
            eprintln!(
                "ranklift: scratch directory kept: {}",
                s.scratch.keep().display()
            );
        }
        let why = match &original.exit {
            Exit::Failed { code, stderr, .. } => {
                let hint = if !args.synthetic_data && download_failed(stderr) {
                    "\nhint: it could not download its data here; --synthetic-data answers the \
                     standard datasets (torchvision, keras.datasets, urllib/requests) with seeded \
                     stand-ins of the same shapes"
                } else {
                    ""
                };
                format!("the original program itself fails (exit {code}):\n{stderr}{hint}")
            }
            Exit::Timeout { seconds, .. } => format!(
                "the original program did not finish within {seconds} s (raise --timeout, or lower --verify-steps)"
            ),
            Exit::Ok => unreachable!(),
        };
        return cannot(&why);
    }
    let two = plan.workers(&rewrite_two, &s.rewrite_main, 2);
    let evidence = Evidence {
        original,
        one,
        two,
        lr_scaled: s.lr_scaled,
        synthetic: args.synthetic_data,
    };
    let checks = verify::judge(&evidence);
    if std::env::var_os("RANKLIFT_VERIFY_KEEP").is_some() {
        eprintln!(
            "ranklift: scratch directory kept: {}",
            s.scratch.keep().display()
        );
    }
    let failed = verify::failed(&checks);
    match format {
        Format::Json => {
            let record = evidence.original.record(0);
            let v = serde_json::json!({
                "verified": !failed,
                "steps": record.map_or(0, |r| r.steps.len()),
                "stopped": record.and_then(|r| r.stopped.clone()),
                "drained": record.and_then(|r| r.drained.clone()),
                "checks": checks,
            });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => print!("{}", render(&checks, &evidence)),
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether a traceback ends in a failed download (no route to the dataset's host).
fn download_failed(stderr: &str) -> bool {
    [
        "urlopen error",
        "Name or service not known",
        "Temporary failure in name resolution",
        "HTTP Error 4",
        "HTTP Error 5",
        "ConnectionError",
        "Exception: URL fetch failure",
        "Network is unreachable",
    ]
    .iter()
    .any(|m| stderr.contains(m))
}

fn render(checks: &[Check], e: &Evidence) -> String {
    let mut s = String::new();
    let width = checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for c in checks {
        let tag = match c.status {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::NotRun => "----",
            Status::Info => "NOTE",
        };
        let mut lines = c.evidence.lines();
        s.push_str(&format!(
            "{tag}  {:<width$}  {}\n",
            c.name,
            crate::report::escape_controls(lines.next().unwrap_or(""))
        ));
        for l in lines {
            s.push_str(&format!(
                "      {:<width$}  {}\n",
                "",
                crate::report::escape_controls(l)
            ));
        }
    }
    let count = |st| checks.iter().filter(|c| c.status == st).count();
    let steps = e.original.record(0).map_or(0, |r| r.steps.len());
    let record = e.original.record(0);
    let how = match (
        record.and_then(|r| r.stopped.as_deref()),
        record.and_then(|r| r.drained.as_deref()),
    ) {
        (Some(why), _) => format!("{steps} steps, stopped at {why}"),
        (None, Some(why)) => format!(
            "{steps} steps; the passes over the training data past {why} ran empty, and the program ran to its end"
        ),
        (None, None) => format!("{steps} steps, run to the end"),
    };
    let failed: Vec<&str> = checks
        .iter()
        .filter(|c| c.status == Status::Fail)
        .map(|c| c.name)
        .collect();
    if failed.is_empty() {
        s.push_str(&format!(
            "Verified: {} checks passed, {} not decided ({how}).\n",
            count(Status::Pass),
            count(Status::NotRun)
        ));
    } else {
        s.push_str(&format!(
            "Verification failed: {} ({} of {} checks; {how}).\n",
            failed.join(", "),
            failed.len(),
            checks.len()
        ));
    }
    s
}
