//! `ranklift distribute`.
//!
//! Exit codes: 0 done (also "nothing to do" and "already distributed"); 1 cannot distribute
//! (restriction violated, no training loop, ambiguous pattern) or, with `--check`, something would
//! change; 2 usage, I/O or syntax error. Nothing is written when any error is reported, and every
//! write is all-or-nothing across files (`crate::write`).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ranklift_distribute::{Framework, Options, Outcome, Status, TfOptions, TorchOptions};

use crate::config_cmd::parse_value;
use crate::launch;
use crate::write::{Transaction, write_tree};
use ranklift_python::config::Config;
use ranklift_python::{Project, Severity};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  ranklift distribute train.py --diff            # show the rewrite, write nothing
  ranklift distribute train.py                   # write train_hvd.py / train_ddp.py, print the launch command
  ranklift distribute project/ -o project-ddp/   # a whole project
  ranklift distribute project/ --check           # CI: exit 1 if the rewrite would change anything
  ranklift distribute train.py --verify          # write the rewrite, then RUN both programs and check it
  ranklift rule DST401                           # explain a code

Exit codes: 0 written (or nothing to do); 1 cannot distribute, or --check found changes, or a
--verify check failed; 2 usage, I/O or syntax error, or --verify could not run. Nothing is written
when an error is reported. Only --verify executes the program; no other mode runs it.")]
pub struct Args {
    /// A `.py` training script, or a project directory.
    path: PathBuf,
    /// Write the distributed program here: a directory (the whole project, unchanged files
    /// copied), or a `.py` file for a single-file program. Default: `<dir>-hvd/` or `<stem>_hvd.py`
    /// next to the input.
    /// With `--check`: check that OUT is what would be written (a distributed copy kept in sync).
    #[arg(short, long, conflicts_with_all = ["in_place", "diff"])]
    output: Option<PathBuf>,
    /// Rewrite the changed files in place (all of them or none).
    #[arg(long, conflicts_with_all = ["diff", "check"])]
    in_place: bool,
    /// Replace an existing output that is not an earlier ranklift output.
    #[arg(long)]
    force: bool,
    /// Print a unified diff and write nothing.
    #[arg(long, conflicts_with = "check")]
    diff: bool,
    /// Write nothing; exit 1 if anything would change (with `-o OUT`: if OUT is not what would
    /// be written).
    #[arg(long)]
    check: bool,
    /// The main script, relative to the project directory (when several scripts train).
    #[arg(long)]
    main: Option<String>,
    /// Processes per machine in the printed `torchrun` commands (PyTorch): a number, `gpu` (one
    /// per GPU) or `auto` (one per GPU, else one per CPU core). [default: `gpu` for a program
    /// that needs CUDA; else `auto` on a machine with an NVIDIA GPU, 2 on one without]
    #[arg(long, value_name = "N", value_parser = nproc_value)]
    nproc_per_node: Option<String>,
    /// Output format for the report.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Explain the analysis: main script, pattern, what was found where, each rewrite.
    #[arg(long)]
    explain: bool,
    /// TensorFlow version the output targets, e.g. 2.13: 2.15 or older writes a Horovod program
    /// (horovodrun), 2.16 or newer one on TensorFlow's own collectives (ranklift_tf, ranklift
    /// launch). [default: the TensorFlow installed for python3 ($RANKLIFT_PYTHON), else 2.13]
    #[arg(long, value_parser = parse_version)]
    target_tf: Option<(u32, u32)>,
    /// Keras `fit`: epochs of Horovod's learning-rate warmup when the rate is scaled by the
    /// number of processes (0 turns it off). [default: 3]
    #[arg(long)]
    lr_warmup: Option<u32>,
    /// PyTorch: scale each optimizer's learning rate with the number of processes. DDP averages
    /// gradients, so the default keeps the rate as it is. [default: none]
    #[arg(long, value_enum)]
    scale_lr: Option<ScaleLr>,
    /// After the rewrite, RUN the original (1 process) and the rewrite (torchrun, 1 and 2
    /// processes) in a scratch copy of the project, for a few optimizer steps, and check that
    /// the rewrite is right: every rank runs, replicas stay identical, each rank reads its own
    /// data, only rank 0 prints and writes, checkpoints load into the original model. Exit 1 if
    /// a check fails, 2 if it could not run. PyTorch programs.
    #[arg(long, conflicts_with = "check")]
    verify: bool,
    #[command(flatten)]
    verify_args: crate::verify_cmd::VerifyArgs,
}

#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum ScaleLr {
    /// Keep the learning rates.
    None,
    /// Multiply them by WORLD_SIZE (Goyal et al. 2017).
    Linear,
}

#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    /// SARIF 2.1.0 (diagnostics only), for code-scanning tools.
    Sarif,
}

fn parse_version(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s.split_once('.').ok_or("expected MAJOR.MINOR, e.g. 2.13")?;
    Ok((
        a.parse().map_err(|_| "bad major version")?,
        b.parse().map_err(|_| "bad minor version")?,
    ))
}

/// Does any module of the project mention TensorFlow or Keras (before asking Python which is
/// installed)?
fn mentions_tensorflow(project: &Project) -> bool {
    project
        .modules
        .iter()
        .any(|m| m.parsed.text.contains("tensorflow") || m.parsed.text.contains("keras"))
}

/// The version of the TensorFlow installed for `python3` ($RANKLIFT_PYTHON), read from its
/// package metadata (TensorFlow itself is not imported: a second at least), within 10 s.
/// `None` when there is no such Python, no TensorFlow, or no answer in time.
fn installed_tensorflow() -> Option<(u32, u32)> {
    const PROBE: &str = "import importlib.metadata as m\nfor n in ('tensorflow', 'tensorflow-cpu', 'tensorflow-gpu', 'tf-nightly', 'tensorflow-macos', 'tensorflow-intel'):\n    try:\n        print(m.version(n)); break\n    except Exception:\n        pass\n";
    let python = std::env::var_os("RANKLIFT_PYTHON").unwrap_or_else(|| "python3".into());
    let mut child = std::process::Command::new(python)
        .args(["-I", "-c", PROBE])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(5))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut out).ok()?;
    let v = out.lines().next()?.trim();
    let mut parts = v.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor: String = parts
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((major, minor.parse().ok()?))
}

/// Fill what the command line left unset from `[tool.ranklift.distribute]`.
fn apply_config(args: &mut Args, c: &Config) -> Result<(), ExitCode> {
    let d = &c.distribute;
    if args.main.is_none() {
        args.main.clone_from(&d.main);
    }
    if args.target_tf.is_none()
        && let Some(v) = &d.target_tf
    {
        args.target_tf = Some(parse_value(c, v, "target-tf", parse_version)?);
    }
    if args.lr_warmup.is_none() {
        args.lr_warmup = d.lr_warmup;
    }
    if args.scale_lr.is_none()
        && let Some(v) = &d.scale_lr
    {
        args.scale_lr = Some(parse_value(c, v, "scale-lr", |s| {
            <ScaleLr as clap::ValueEnum>::from_str(s, false)
        })?);
    }
    Ok(())
}

/// `torchrun` and `horovodrun` start N copies of a script; a notebook's kernel is one process.
fn notebook_refused(path: &Path) -> ExitCode {
    let script = path.with_extension("py");
    let d = ranklift_python::Diagnostic::file_level(
        &path.display().to_string(),
        NOTEBOOK,
        Severity::Error,
        "a notebook cannot be distributed: torchrun and horovodrun start one process per rank from a script, and a notebook runs in one kernel",
    )
    .with_hint(format!(
        "export it to a script, then distribute the script: `jupyter nbconvert --to script {}` and `ranklift distribute {}`",
        path.display(),
        script.display()
    ));
    eprint!("{}", d.render_text());
    ExitCode::from(2)
}

/// Code for a notebook given to `distribute` (exit 2).
///
/// **Why:** `torchrun` and `horovodrun` start one process per rank from a script; a notebook
/// runs in one kernel.
///
/// **Fix:** `jupyter nbconvert --to script nb.ipynb`, then `ranklift distribute nb.py`.
const NOTEBOOK: &str = "RL005";

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {}", crate::report::escape_text(msg));
    ExitCode::from(2)
}

/// Where the output goes for the default / `-o` mode.
enum Dest {
    File(PathBuf),
    Dir(PathBuf),
}

pub fn run(mut args: Args, config: &crate::config_cmd::ConfigArgs) -> ExitCode {
    if args.verify && args.format != Format::Text {
        return usage_error(
            "--verify prints its verdict as text; for JSON, run `ranklift verify OUT --original PATH --format json`",
        );
    }
    let meta = match std::fs::metadata(&args.path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return crate::report::no_such_file(&args.path);
        }
        Err(e) => return usage_error(&format!("{}: {e}", args.path.display())),
    };
    let mut is_dir = meta.is_dir();
    if !is_dir && args.path.extension().is_some_and(|e| e == "ipynb") {
        return notebook_refused(&args.path);
    }
    // A script inside a project it imports a package of (installed with `pip install -e .`):
    // the rewrite must reach the package's training code, so the project is distributed, with
    // the script as its main.
    if !is_dir
        && args.main.is_none()
        && args
            .output
            .as_ref()
            .is_none_or(|o| o.extension().is_none_or(|e| e != "py"))
        && let Some((root, rel, package)) =
            ranklift_python::project::installed_project_root(&args.path)
    {
        eprintln!(
            "ranklift: {} imports `{package}` from the project at {}: distributing the project, with {rel} as its main script",
            args.path.display(),
            root.display()
        );
        args.path = root;
        args.main = Some(rel);
        is_dir = true;
    }
    let config = match config.resolve(&args.path) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if let Some(c) = &config
        && let Err(code) = apply_config(&mut args, c)
    {
        return code;
    }
    // `[tool.ranklift] exclude` / `extend-exclude`: what the analysis of a directory leaves out.
    let excludes = match Config::excludes(config.as_ref(), &[], &[]) {
        Ok(x) => x,
        Err(d) => {
            eprint!("{}", d.render_text());
            return ExitCode::from(2);
        }
    };
    // A write that a killed ranklift left unfinished is rolled back before anything else.
    let root = if is_dir {
        args.path.clone()
    } else {
        args.path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or(PathBuf::from("."), Path::to_path_buf)
    };
    if let Err(code) = handle_journal(&root, &args) {
        return code;
    }
    let writes_output = !(args.in_place || args.diff || args.check);
    // An explicit -o is known now; the default name depends on the target (`-hvd`, `-ddp`) and is
    // chosen after the analysis.
    let dest = if writes_output || args.check {
        args.output.as_ref().map(|o| {
            if !is_dir && o.extension().is_some_and(|e| e == "py") {
                Dest::File(o.clone())
            } else {
                Dest::Dir(o.clone())
            }
        })
    } else {
        None
    };
    if let Some(Dest::Dir(d)) = &dest
        && is_dir
        && same_file(d, &args.path)
    {
        return usage_error(&format!(
            "{}: the output directory is the input directory; use --in-place to rewrite the project, or choose another -o",
            d.display()
        ));
    }
    if let Some(Dest::File(f)) = &dest
        && same_file(f, &args.path)
    {
        return usage_error(&format!(
            "{}: the output file is the input file; use --in-place to rewrite it",
            f.display()
        ));
    }
    let project = if is_dir {
        let exclude = match &dest {
            Some(Dest::Dir(d)) => Some(d.as_path()),
            _ => None,
        };
        load_dir_with_progress(&args.path, exclude, &excludes)
    } else {
        Project::load_file(&args.path, &|m| {
            let t = &m.parsed.text;
            t.contains("tensorflow") || t.contains("keras") || t.contains("torch")
        })
    };
    // The TensorFlow the output targets: given, else the one installed where the program would
    // run (`python3`, or $RANKLIFT_PYTHON), else assumed (2.13, Horovod; said below).
    let installed = match args.target_tf {
        None if mentions_tensorflow(&project) => installed_tensorflow(),
        _ => None,
    };
    let target_tf_assumed = args.target_tf.is_none() && installed.is_none();
    let opts = Options {
        facts: args.explain || args.format == Format::Json,
        tf: TfOptions {
            target_tf: args.target_tf.or(installed).unwrap_or((2, 13)),
            target_tf_assumed,
            lr_warmup_epochs: args.lr_warmup.unwrap_or(3),
        },
        torch: TorchOptions {
            scale_lr_linear: args.scale_lr == Some(ScaleLr::Linear),
        },
    };
    let mut outcome = ranklift_distribute::distribute(&project, args.main.as_deref(), &opts);
    if let Some(l) = outcome.launch.as_mut() {
        match &args.nproc_per_node {
            Some(_) if l.nproc_per_node().is_none() => eprintln!(
                "ranklift: warning: --nproc-per-node is not used: the launch command is not torchrun (say the number of workers to the launcher it prints)"
            ),
            Some(n) => l.set_nproc_per_node(n),
            // One process per CPU core is what `auto` means without a GPU: dozens of ranks on a
            // workstation; and `gpu` fails at once. Two show the program distributed here; the
            // user says how many with --nproc-per-node (the multi-machine forms keep theirs).
            None if matches!(l.nproc_per_node(), Some("auto" | "gpu"))
                && !crate::launch::has_nvidia_gpu() =>
            {
                l.set_nproc_per_node_single("2")
            }
            None => {}
        }
    }
    // Findings are located relative to the project; show them relative to where the user stands.
    crate::report::relativize(&mut outcome.diagnostics, Some(&project.root));
    // A script whose imported modules change too is written as a project: the whole directory,
    // next to it as `<dir>-ddp/`, so that the script runs with its rewritten modules.
    let main = outcome.main.as_deref().unwrap_or("");
    let whole = !is_dir && outcome.changes.iter().any(|c| c.path != main && !c.created);
    let dest = match dest {
        None if writes_output && whole => Some(default_dest(&root, true, outcome.framework)),
        None if writes_output => Some(default_dest(&args.path, is_dir, outcome.framework)),
        d => d,
    };
    // --verify copies the project (as it is and rewritten) before anything is written, so an
    // in-place write cannot change what the original run sees.
    let staged = (args.verify && outcome.status == Status::Rewritten && !outcome.has_errors())
        .then(|| {
            crate::verify_cmd::stage(&project, &outcome, args.scale_lr == Some(ScaleLr::Linear))
        });
    let code = report_and_write(&args, &project, &outcome, dest, whole);
    let code = match staged {
        Some(_) if code != ExitCode::SUCCESS => code,
        Some(Ok(s)) => {
            crate::verify_cmd::execute(s, &args.verify_args, crate::verify_cmd::Format::Text)
        }
        Some(Err(why)) => crate::verify_cmd::cannot(&why),
        None if args.verify && outcome.status != Status::Rewritten => {
            eprintln!("ranklift: --verify: nothing was rewritten, so nothing was verified");
            code
        }
        None => code,
    };
    if target_tf_assumed
        && outcome.framework == ranklift_distribute::Framework::Tensorflow
        && outcome.status == ranklift_distribute::Status::Rewritten
        && args.format == Format::Text
        && outcome
            .launch
            .as_ref()
            .is_some_and(|l| l.single[0] == "horovodrun")
    {
        eprintln!(
            "ranklift: no TensorFlow is installed for python3 here: the rewrite targets TensorFlow <= 2.15 and Horovod; for TensorFlow 2.16 or newer (Keras 3), pass --target-tf 2.16 to use TensorFlow's own collectives"
        );
    }
    // The process ends here: freeing every syntax tree one by one would only cost time.
    std::mem::forget(outcome);
    std::mem::forget(project);
    code
}

/// A journal left in the project root (`crate::journal`): a foreign one is ignored with a warning;
/// this user's own is rolled back by a writing run, and stops a read-only run (`--check`,
/// `--diff`), which never changes the project.
fn handle_journal(root: &Path, args: &Args) -> Result<(), ExitCode> {
    use crate::journal::Found;
    let path = root.join(crate::journal::JOURNAL);
    match crate::journal::inspect(root) {
        Found::None => Ok(()),
        Found::Ignored(why) => {
            eprintln!(
                "warning: {}: ignored, not applied: {}",
                crate::report::escape_controls(&path.display().to_string()),
                crate::report::escape_controls(&why)
            );
            Ok(())
        }
        Found::Ours(entries) if args.check || args.diff => {
            let files: Vec<&str> = entries.iter().map(|e| e.target.as_str()).collect();
            eprintln!(
                "error: {}: an earlier ranklift write was interrupted; {} may be half-rewritten ({})\n  \
                 help: --check and --diff change nothing, so they do not roll it back: a writing run restores them first: `ranklift distribute {}` (its output goes next to the project), then check again",
                path.display(),
                if files.len() == 1 {
                    "this file"
                } else {
                    "these files"
                },
                files.join(", "),
                args.path.display(),
            );
            Err(ExitCode::from(2))
        }
        Found::Ours(entries) => match crate::write::recover(root, entries) {
            Ok(files) => {
                eprintln!(
                    "ranklift: an interrupted earlier write was rolled back; restored: {}",
                    files
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                Ok(())
            }
            Err(e) => Err(usage_error(&format!(
                "cannot roll back an interrupted write: {e}"
            ))),
        },
    }
}

/// `<dir>-hvd/` or `<stem>_hvd.py` next to the input (`-ddp`, `_ddp` for PyTorch).
fn default_dest(path: &Path, is_dir: bool, framework: Framework) -> Dest {
    let tag = match framework {
        Framework::Tensorflow => "hvd",
        Framework::Torch => "ddp",
    };
    if is_dir {
        let canon = path.canonicalize().unwrap_or(path.to_path_buf());
        let name = canon
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or("project".into());
        Dest::Dir(canon.with_file_name(format!("{name}-{tag}")))
    } else {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Dest::File(path.with_file_name(format!("{stem}_{tag}.py")))
    }
}

/// `--nproc-per-node`: what torchrun accepts (a positive count, `gpu`, `cpu` or `auto`).
fn nproc_value(s: &str) -> Result<String, String> {
    match s {
        "gpu" | "cpu" | "auto" => Ok(s.to_owned()),
        _ if s.parse::<u32>().is_ok_and(|n| n > 0) => Ok(s.to_owned()),
        _ => Err(format!(
            "`{s}` is not a number of processes: give a positive number, `gpu`, `cpu` or `auto`"
        )),
    }
}

fn report_and_write(
    args: &Args,
    project: &Project,
    outcome: &Outcome,
    dest: Option<Dest>,
    whole: bool,
) -> ExitCode {
    // The main script as it will be launched: the output written (or, for --diff and --check,
    // the one `ranklift distribute PATH` would write), or the input itself with --in-place.
    let main_rel = outcome.main.clone().unwrap_or_default();
    let script = match &dest {
        Some(Dest::File(f)) => f.clone(),
        Some(Dest::Dir(d)) => d.join(&main_rel),
        None if args.in_place && project.entry.is_some() => args.path.clone(),
        None if args.in_place => args.path.join(&main_rel),
        None => {
            let d = if whole {
                default_dest(&project.root, true, outcome.framework)
            } else {
                default_dest(&args.path, args.path.is_dir(), outcome.framework)
            };
            match d {
                Dest::File(f) => f,
                Dest::Dir(d) => d.join(&main_rel),
            }
        }
    };
    // One rewritten file written away from the program (`-o ../elsewhere/train.py`) of a
    // program that opens files by relative paths: it runs from the original's directory, with
    // that directory on PYTHONPATH when the program imports its siblings.
    let away = match &dest {
        Some(Dest::File(f)) if project.entry.is_some() => {
            let dir = |p: &Path| {
                let d = p.parent().filter(|d| !d.as_os_str().is_empty());
                std::fs::canonicalize(d.unwrap_or(Path::new("."))).ok()
            };
            let orig = dir(&args.path);
            (orig.is_some() && orig != dir(f)).then(|| {
                args.path
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
            })
        }
        _ => None,
    };
    let commands = outcome.launch.as_ref().map(|l| match &away {
        Some(from) if l.relative_paths => {
            let mut l = l.clone();
            if project.modules.len() > 1 && l.pythonpath.is_none() {
                l.pythonpath = Some(".".to_owned());
            }
            launch::commands_from(&l, &script, Some(from))
        }
        _ => launch::commands(l, &script),
    });
    // Report.
    let json = args.format != Format::Text;
    let mut stdout = std::io::stdout().lock();
    if args.format == Format::Sarif {
        let v = ranklift_python::diagnostics::to_sarif("ranklift distribute", &outcome.diagnostics);
        let _ = writeln!(
            stdout,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
    } else if json {
        let v = json_report(outcome, args.diff, commands.as_ref());
        let _ = writeln!(
            stdout,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
    } else {
        // `--check` reports on stdout, as `shapes` and `choreo check` do; otherwise stdout is
        // the rewrite's (the diff, the explanation) and findings go to stderr.
        let mut text = String::new();
        for d in &outcome.diagnostics {
            text.push_str(&crate::report::render(d, 0, true));
        }
        if args.check {
            anstream::print!("{text}");
        } else {
            anstream::eprint!("{text}");
        }
        if outcome.has_errors() || (!args.check && !outcome.diagnostics.is_empty()) {
            let s = crate::report::summary(&outcome.diagnostics);
            if args.check {
                anstream::println!("{s}");
            } else {
                anstream::eprintln!("{s}");
            }
        }
        if args.explain {
            let text = explain(outcome, commands.as_ref());
            if args.diff {
                eprint!("{text}")
            } else {
                let _ = write!(stdout, "{text}");
            }
        }
        if args.diff {
            // Diffs are independent per file: build them in parallel, print in order.
            use rayon::prelude::*;
            let diffs: Vec<String> = outcome
                .changes
                .par_iter()
                .map(|c| c.unified_diff())
                .collect();
            for d in diffs {
                let _ = stdout.write_all(d.as_bytes());
            }
        }
    }
    match outcome.status {
        Status::InputError => return ExitCode::from(2),
        Status::CannotDistribute => {
            if !json {
                eprintln!("ranklift: cannot distribute; nothing was written");
            }
            return ExitCode::from(1);
        }
        Status::AlreadyDistributed => {
            if !json {
                eprintln!("ranklift: already distributed; nothing to do");
            }
            return ExitCode::SUCCESS;
        }
        Status::Rewritten => {}
    }
    if outcome.has_errors() {
        return ExitCode::from(1);
    }
    let changed: Vec<&str> = outcome.changes.iter().map(|c| c.path.as_str()).collect();
    if args.check
        && let Some(dest) = &dest
    {
        let stale = out_of_sync(project, outcome, dest);
        if !json {
            for f in &stale {
                println!("out of date: {f}");
            }
            if stale.is_empty() {
                println!("All checks passed.");
            }
            if !stale.is_empty() {
                eprintln!(
                    "ranklift: the distributed copy is not what `ranklift distribute {} -o {}` writes; run it to update",
                    args.path.display(),
                    match dest {
                        Dest::File(f) | Dest::Dir(f) => f.display(),
                    }
                );
            }
        }
        return if stale.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    if args.check {
        if !json {
            for c in &changed {
                println!(
                    "would rewrite {}",
                    crate::report::display_path(&project.root.join(c).display().to_string())
                );
            }
            println!(
                "{}",
                match changed.len() {
                    0 => "All checks passed.".to_owned(),
                    1 => "1 file would be rewritten.".to_owned(),
                    n => format!("{n} files would be rewritten."),
                }
            );
        }
        return if changed.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    if args.diff {
        // The diff applies in place: once applied, the input is the script to launch.
        if !json && let Some(l) = &outcome.launch {
            let script = if project.entry.is_some() {
                args.path.clone()
            } else {
                args.path.join(&main_rel)
            };
            eprint!(
                "once the diff is applied, {}",
                launch::render(&launch::commands(l, &script))
            );
        }
        return ExitCode::SUCCESS;
    }
    let result = if args.in_place {
        write_in_place(project, outcome)
    } else {
        match dest {
            Some(Dest::File(f)) => write_file_dest(outcome, &f, args.force),
            Some(Dest::Dir(d)) => {
                if whole && !json {
                    eprintln!(
                        "ranklift: the rewrite changes modules {} imports ({}) too: the whole project is written",
                        outcome.main.as_deref().unwrap_or(""),
                        outcome
                            .changes
                            .iter()
                            .filter(
                                |c| Some(c.path.as_str()) != outcome.main.as_deref() && !c.created
                            )
                            .map(|c| c.path.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                }
                write_dir_dest(project, outcome, &d, args.force, json, whole)
            }
            None => Ok(String::new()),
        }
    };
    match result {
        Ok(where_) => {
            if !json {
                let pattern = outcome.pattern.map(|p| p.describe()).unwrap_or("");
                eprintln!(
                    "ranklift: {} ({pattern}): rewrote {} file(s){}",
                    crate::report::escape_controls(outcome.main.as_deref().unwrap_or("")),
                    changed.len(),
                    crate::report::escape_controls(&where_)
                );
                if let Some(c) = &commands {
                    eprint!("{}", launch::render(c));
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(&e),
    }
}

fn load_dir_with_progress(
    root: &Path,
    exclude: Option<&Path>,
    excludes: &ranklift_python::files::Excludes,
) -> Project {
    let tty = std::io::stderr().is_terminal();
    let bar = indicatif::ProgressBar::hidden();
    if tty {
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} parsing {pos}/{len} files")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
    }
    let shown = std::sync::atomic::AtomicBool::new(false);
    let p = Project::load_dir_excluding(root, exclude, excludes, &|n, total| {
        if tty && total >= 200 {
            if !shown.swap(true, std::sync::atomic::Ordering::Relaxed) {
                bar.set_length(total as u64);
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            bar.set_position(n as u64);
        }
    });
    bar.finish_and_clear();
    p
}

/// Whether two paths name the same existing file or directory.
fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

fn write_in_place(project: &Project, outcome: &Outcome) -> Result<String, String> {
    let mut t = Transaction::new(&project.root);
    for c in &outcome.changes {
        t.stage(&project.root.join(&c.path), &c.bytes)?;
    }
    t.commit()?;
    Ok(" in place".into())
}

/// `--check -o OUT`: the files of OUT that differ from what would be written there (the
/// rewritten files, and the project's Python modules copied unchanged); none when in sync.
fn out_of_sync(project: &Project, outcome: &Outcome, dest: &Dest) -> Vec<String> {
    let differs = |path: &Path, want: &[u8]| {
        ranklift_python::source::read_regular(path).map_or(true, |have| have != want)
    };
    match dest {
        Dest::File(f) => {
            let main = outcome.main.as_deref().unwrap_or("");
            let mut stale = match outcome.changes.iter().find(|c| c.path == main) {
                Some(c) if !differs(f, &c.bytes) => Vec::new(),
                _ => vec![f.display().to_string()],
            };
            let dir = f.parent().unwrap_or(Path::new(""));
            for c in outcome.changes.iter().filter(|c| c.created) {
                let out = dir.join(Path::new(&c.path).file_name().unwrap_or_default());
                if differs(&out, &c.bytes) {
                    stale.push(out.display().to_string());
                }
            }
            stale
        }
        Dest::Dir(d) => {
            let mut stale = Vec::new();
            for m in &project.modules {
                let out = d.join(&m.rel_path);
                let want: Vec<u8> = match outcome.changes.iter().find(|c| c.path == m.rel_path) {
                    Some(c) => c.bytes.clone(),
                    None => ranklift_python::source::read_regular(&project.root.join(&m.rel_path))
                        .unwrap_or_default(),
                };
                if differs(&out, &want) {
                    stale.push(out.display().to_string());
                }
            }
            for c in outcome.changes.iter().filter(|c| c.created) {
                let out = d.join(&c.path);
                if differs(&out, &c.bytes) {
                    stale.push(out.display().to_string());
                }
            }
            stale
        }
    }
}

fn write_file_dest(outcome: &Outcome, dest: &Path, force: bool) -> Result<String, String> {
    let main = outcome.main.as_deref().unwrap_or("");
    if outcome.changes.iter().any(|c| c.path != main && !c.created) {
        return Err(format!(
            "the rewrite also changes imported modules ({}); write to a directory with -o DIR",
            outcome
                .changes
                .iter()
                .filter(|c| c.path != main && !c.created)
                .map(|c| c.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    // Never written through: a link at `dest` is refused, or with --force replaced itself.
    let is_link = std::fs::symlink_metadata(dest).is_ok_and(|m| m.file_type().is_symlink());
    if is_link && !force {
        return Err(format!(
            "{}: is a symbolic link; ranklift never writes through one (pass --force to replace the link itself, or choose another -o)",
            dest.display()
        ));
    }
    if let Some(c) = outcome.changes.iter().find(|c| c.path == main) {
        let dir = dest
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        // The script, and a module the rewrite imports (`ranklift_tf.py`) next to it, in the
        // same all-or-nothing write.
        let mut files: Vec<(PathBuf, &[u8])> = vec![(dest.to_path_buf(), &c.bytes)];
        for extra in outcome.changes.iter().filter(|c| c.created) {
            let name = Path::new(&extra.path).file_name().unwrap_or_default();
            files.push((dir.join(name), &extra.bytes));
        }
        // An existing file is replaced only when it is exactly what this user's ranklift wrote
        // there (or is already what would be written), whatever it says.
        for (path, bytes) in &files {
            if !force
                && let Ok(old) = ranklift_python::source::read_regular(path)
                && old != *bytes
                && !crate::journal::wrote_output(path, &old)
            {
                return Err(format!(
                    "{}: exists and is not an earlier ranklift output (or was edited since); pass --force to replace it",
                    path.display()
                ));
            }
        }
        let mut t = Transaction::new(dir);
        for (path, bytes) in &files {
            t.stage_no_follow(path, bytes)?;
        }
        t.commit()?;
        for (path, bytes) in &files {
            crate::journal::remember_output(path, bytes);
        }
    }
    Ok(format!(" to {}", dest.display()))
}

/// Build the whole output in a staging directory and swap it in (see `crate::write`): the
/// project is copied so that the output runs where the input ran (`crate::copy_tree`); what was
/// linked or left out is said.
fn write_dir_dest(
    project: &Project,
    outcome: &Outcome,
    dest: &Path,
    force: bool,
    quiet: bool,
    whole: bool,
) -> Result<String, String> {
    let changes = outcome.rewritten();
    let marker = format!(
        "ranklift distribute output of {}\n",
        project
            .root
            .canonicalize()
            .unwrap_or(project.root.clone())
            .display()
    );
    let mut report = crate::copy_tree::Report::default();
    let single_file = project.entry.is_some() && !whole;
    write_tree(dest, force, &marker, |staging| {
        if single_file {
            // A script and the sibling modules it imports: exactly those files.
            for f in &project.files {
                let target = staging.join(f);
                if let Some(p) = target.parent() {
                    std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()))?;
                }
                match changes.get(f.as_str()) {
                    Some(b) => std::fs::write(&target, b),
                    None => std::fs::copy(project.root.join(f), &target).map(|_| ()),
                }
                .map_err(|e| format!("{f}: {e}"))?;
            }
        } else {
            report = crate::copy_tree::copy_project(
                &project.root,
                staging,
                &changes,
                &[dest.to_path_buf()],
            )?;
        }
        // Modules the rewrite imports (`ranklift_tf.py`), next to the main script.
        for c in outcome.changes.iter().filter(|c| c.created) {
            let target = staging.join(&c.path);
            if let Some(p) = target.parent() {
                std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()))?;
            }
            std::fs::write(&target, &c.bytes).map_err(|e| format!("{}: {e}", c.path))?;
        }
        Ok(())
    })?;
    if !quiet {
        use crate::report::escape_controls as esc;
        for (rel, target, why) in &report.linked {
            eprintln!(
                "ranklift: linked {} -> {} ({why})",
                esc(rel),
                esc(&target.display().to_string())
            );
        }
        for (rel, why) in &report.left_out {
            eprintln!("ranklift: left out {}: {why}", esc(rel));
        }
    }
    Ok(format!(" into {}", dest.display()))
}

fn explain(o: &Outcome, commands: Option<&launch::Commands>) -> String {
    let mut s = String::new();
    if let Some(m) = &o.main {
        s.push_str(&format!("main script: {m}\n"));
    }
    if let Some(p) = o.pattern {
        s.push_str(&format!("training pattern: {}\n", p.describe()));
    }
    if let Some(c) = commands {
        s.push_str(&format!("launch: {}\n", c.single.line));
    }
    let f = &o.facts;
    for (what, sites) in [
        ("model", &f.models),
        ("optimizer", &f.optimizers),
        ("dataset", &f.datasets),
        ("checkpoint", &f.checkpoints),
        ("gradient tape", &f.tapes),
        ("session/estimator", &f.sessions),
        ("training call", &f.training_calls),
        ("device", &f.devices),
    ] {
        for x in sites {
            s.push_str(&format!("{what}: {}:{}: {}\n", x.path, x.line, x.code));
        }
    }
    if !o.applied.is_empty() {
        s.push_str("rewrites:\n");
        for a in &o.applied {
            s.push_str(&format!(
                "  {}:{}: [{}] {}\n",
                a.path, a.line, a.rule, a.message
            ));
        }
    }
    s
}

fn json_report(
    o: &Outcome,
    with_diff: bool,
    commands: Option<&launch::Commands>,
) -> serde_json::Value {
    let files: Vec<serde_json::Value> = o
        .changes
        .iter()
        .map(|c| {
            let mut v = serde_json::json!({ "path": c.path });
            if c.created {
                v["created"] = serde_json::Value::Bool(true);
            }
            if with_diff {
                v["diff"] = serde_json::Value::String(c.unified_diff());
            }
            v
        })
        .collect();
    serde_json::json!({
        "status": o.status,
        "framework": o.framework,
        "launch": commands,
        "main": o.main,
        "pattern": o.pattern,
        "facts": o.facts,
        "files": files,
        "edits": o.applied,
        "diagnostics": o.diagnostics,
        "errors": o.diagnostics.iter().filter(|d| d.severity == Severity::Error).count(),
    })
}
