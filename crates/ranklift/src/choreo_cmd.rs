//! `ranklift choreo`: check, project and run PyChoral choreographies.
//!
//! Errors print as `path:line:col: error[CODE]: message`, a snippet and a hint, sorted, then a
//! summary (`check`: on stdout; `project` and `run`: on stderr, their stdout being the output);
//! exit 1 on errors in the choreography, 2 on usage or I/O problems. Nothing is written unless the
//! whole choreography checks.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use ranklift_choreo::{Projection, RUNTIME, Want};
use ranklift_python::SourceFile;
use ranklift_python::diagnostics::{self, Diagnostic};

use crate::write::Transaction;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  ranklift choreo check examples/choreo/
  ranklift choreo project examples/choreo/karatsuba.py -o out/
  ranklift choreo run examples/choreo/karatsuba.py --tcp

Exit codes: 0 ok; 1 the choreography has errors (nothing written); 2 usage or I/O error.")]
pub struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// Check roles, locations, channels and knowledge of choice; print every error.
    Check {
        /// Choreography files, or directories (their `.py` files that import `pychoral`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Write one module with a class per role (`<stem>_chor.py`) and the runtime (`pychoral_rt.py`).
    Project {
        file: PathBuf,
        /// Output directory (created if missing).
        #[arg(short, long)]
        out: PathBuf,
        /// Also write the role-erased program `<stem>_erased.py` (for mypy and reference runs).
        #[arg(long)]
        emit_erased: bool,
        /// Also write one module per role, `<stem>_<Role>.py`, with only the classes that role
        /// runs (to deploy each role without the others' code).
        #[arg(long)]
        split: bool,
        /// Replace files in OUT that ranklift did not write, and symbolic links (the link itself
        /// is replaced; nothing is ever written through it).
        #[arg(long)]
        force: bool,
    },
    /// Project to a temporary directory and run every role; print each role's lines as `[Role] line`.
    Run {
        file: PathBuf,
        /// The role class whose `@entry` method starts the protocol (may be omitted if there is one).
        #[arg(long)]
        entry: Option<String>,
        /// One OS process per role over loopback TCP (default: one thread per role).
        #[arg(long)]
        tcp: bool,
        /// Print each line as soon as a role prints it (default: grouped per role at the end).
        #[arg(long)]
        stream: bool,
        /// Python interpreter, 3.10 or newer (default: $PYCHORAL_PYTHON, else `python3`).
        #[arg(long)]
        python: Option<String>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

pub fn run(args: Args) -> ExitCode {
    match args.command {
        Cmd::Check { files, format } => {
            let mut all = Vec::new();
            let mut status = ExitCode::SUCCESS;
            let mut io_error = false;
            for (file, from_dir) in expand(&files) {
                // A missing input is reported as every command reports it; the others are
                // still checked.
                if !file.exists() {
                    crate::report::no_such_file(&file);
                    io_error = true;
                    continue;
                }
                let display = file.display().to_string();
                match load_and_compile(&file, Want::default()) {
                    Err(d) => {
                        io_error = true;
                        all.push(*d);
                    }
                    Ok(Ok(p)) => {
                        if format == Format::Text {
                            let roles: Vec<String> = p
                                .classes
                                .iter()
                                .map(|(c, rs)| format!("{c}[{}]", rs.join(", ")))
                                .collect();
                            if !roles.is_empty() {
                                eprintln!("{display}: ok ({})", roles.join(", "));
                            } else if !from_dir {
                                eprintln!(
                                    "{display}: ok, but it declares no choreography (a class with roles, `class C(Choreography[A, B])`)"
                                );
                            }
                        }
                    }
                    Ok(Err(diags)) => {
                        status = ExitCode::from(1);
                        all.extend(diags);
                    }
                }
            }
            crate::report::relativize(&mut all, None);
            report(&all, format, true);
            if io_error { ExitCode::from(2) } else { status }
        }
        Cmd::Project {
            file,
            out,
            emit_erased,
            split,
            force,
        } => {
            let p = match compile(
                &file,
                Want {
                    erased: emit_erased,
                    split,
                },
            ) {
                Ok(p) => p,
                Err(code) => return code,
            };
            match write_projection(&p, &out, emit_erased, split, force) {
                Ok(written) => {
                    for w in written {
                        eprintln!(
                            "wrote {}",
                            crate::report::escape_controls(&w.display().to_string())
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Cmd::Run {
            file,
            entry,
            tcp,
            stream,
            python,
        } => {
            let p = match compile(&file, Want::default()) {
                Ok(p) => p,
                Err(code) => return code,
            };
            let entry = match pick_entry(&p, entry.as_deref()) {
                Ok(e) => e,
                Err(msg) => {
                    eprintln!("error: {msg}");
                    return ExitCode::from(2);
                }
            };
            let python = python
                .or_else(|| std::env::var("PYCHORAL_PYTHON").ok())
                .unwrap_or_else(|| "python3".to_owned());
            run_projection(&p, &entry, tcp, stream, &python)
        }
    }
}

/// The files to check: files as given; directories walked (respecting `.gitignore`) for `.py`
/// files that import `pychoral`, sorted. The flag says the file came from a directory.
fn expand(paths: &[PathBuf]) -> Vec<(PathBuf, bool)> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push((p.clone(), false));
            continue;
        }
        let above = ranklift_python::files::ParentIgnores::stderr(p);
        let base = p.clone();
        let mut found: Vec<PathBuf> = ignore::WalkBuilder::new(p)
            .parents(false)
            .filter_entry(move |e| {
                let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                e.depth() == 0 || !above.ignored(&base, e.path(), is_dir)
            })
            .build()
            .filter_map(Result::ok)
            .map(|e| e.into_path())
            .filter(|f| {
                f.extension().is_some_and(|x| x == "py")
                    && ranklift_python::source::read_regular(f)
                        .is_ok_and(|b| memchr::memmem::find(&b, b"pychoral").is_some())
            })
            .collect();
        found.sort();
        out.extend(found.into_iter().map(|f| (f, true)));
    }
    out
}

/// Load and compile `file`: `Err(RL002 diagnostic)` if it cannot be read or decoded, else the
/// projection or the choreography's errors.
fn load_and_compile(
    file: &Path,
    want: Want,
) -> Result<Result<Projection, Vec<Diagnostic>>, Box<Diagnostic>> {
    let display = file.display().to_string();
    let src =
        SourceFile::load(file).map_err(|e| Box::new(e.to_diagnostic(&display).rustc_style()))?;
    let text: Arc<str> = src.text.as_str().into();
    Ok(ranklift_choreo::compile_with(&display, &text, want))
}

/// Print diagnostics: text (snippets and hints) on stdout for `check` (`to_stdout`), on stderr
/// for `project` and `run` (whose stdout is the roles' output); JSON or SARIF on stdout. A
/// summary follows (`crate::report::summary`).
fn report(diags: &[Diagnostic], format: Format, to_stdout: bool) {
    match format {
        Format::Text => {
            let mut out = String::new();
            for d in diags {
                out.push_str(&crate::report::render(d, 0, true));
            }
            if to_stdout {
                anstream::print!("{out}");
            } else {
                anstream::eprint!("{out}");
            }
            crate::report::print_summary(diags, !to_stdout);
        }
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "diagnostics": diags }))
                .unwrap_or_default()
        ),
        Format::Sarif => println!(
            "{}",
            serde_json::to_string_pretty(&diagnostics::to_sarif("ranklift choreo", diags))
                .unwrap_or_default()
        ),
    }
    if format != Format::Text {
        crate::report::print_summary(diags, true);
    }
}

/// Compile for `project` and `run`: errors are printed as text, exit 1.
fn compile(file: &Path, want: Want) -> Result<Projection, ExitCode> {
    if !file.exists() {
        return Err(crate::report::no_such_file(file));
    }
    let loaded = load_and_compile(file, want).map_err(|d| {
        eprint!("{}", d.render_text());
        ExitCode::from(2)
    })?;
    match loaded {
        Ok(p) => Ok(p),
        Err(mut diags) => {
            crate::report::relativize(&mut diags, None);
            report(&diags, Format::Text, false);
            Err(ExitCode::from(1))
        }
    }
}

fn write_projection(
    p: &Projection,
    out: &Path,
    erased: bool,
    split: bool,
    force: bool,
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut files = vec![
        (out.join(format!("{}.py", p.module_name)), p.module.clone()),
        (out.join("pychoral_rt.py"), RUNTIME.to_owned()),
    ];
    let stem = p.module_name.trim_end_matches("_chor");
    if erased {
        files.push((out.join(format!("{stem}_erased.py")), p.erased.clone()));
    }
    if split {
        for (role, text) in &p.role_modules {
            files.push((out.join(format!("{stem}_{role}.py")), text.clone()));
        }
    }
    // A projection that a killed run left half-written is rolled back first.
    match crate::journal::inspect(out) {
        crate::journal::Found::Ours(entries) => {
            crate::write::recover(out, entries)?;
        }
        crate::journal::Found::Ignored(why) => eprintln!(
            "warning: {}: ignored, not applied: {why}",
            out.join(crate::journal::JOURNAL).display()
        ),
        crate::journal::Found::None => {}
    }
    // All files or none: a half-written projection would not run.
    let mut t = Transaction::new(out);
    for (path, text) in &files {
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() && !force => {
                return Err(format!(
                    "{}: is a symbolic link; ranklift never writes through one (pass --force to replace the link itself, or choose another -o)",
                    path.display()
                ));
            }
            Ok(m) if m.is_file() && !force && !written_by_ranklift(path) => {
                return Err(format!(
                    "{}: exists and was not written by ranklift; pass --force to replace it, or choose another -o",
                    path.display()
                ));
            }
            _ => {}
        }
        t.stage_no_follow(path, text.as_bytes())?;
    }
    t.commit()?;
    Ok(files.into_iter().map(|(p, _)| p).collect())
}

/// Does the file at `path` carry a mark of a ranklift projection (the projected module's and role
/// modules' header, the erased program's runner, the runtime's docstring)? Read with the one bounded reader.
fn written_by_ranklift(path: &Path) -> bool {
    ranklift_python::source::read_regular(path).is_ok_and(|head| {
        head.starts_with(b"\"\"\"pychoral_rt")
            || memchr::memmem::find(&head, b"ranklift choreo").is_some()
    })
}

fn pick_entry(p: &Projection, want: Option<&str>) -> Result<String, String> {
    let names: Vec<&str> = p.entries.iter().map(|e| e.class.as_str()).collect();
    match want {
        Some(w) if names.contains(&w) => Ok(w.to_owned()),
        Some(w) => Err(format!(
            "`{w}` has no `@entry` method; choreographies with one: {}",
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        )),
        None if names.len() == 1 => Ok(names[0].to_owned()),
        None if names.is_empty() => Err("no role class has an `@entry` method".to_owned()),
        None => Err(format!(
            "several entries ({}); choose one with --entry",
            names.join(", ")
        )),
    }
}

fn run_projection(p: &Projection, entry: &str, tcp: bool, stream: bool, python: &str) -> ExitCode {
    // A fresh private directory (mkdtemp, mode 0700): another local user cannot have prepared
    // it, so the runtime it holds is the one that runs (a predictable name in a shared /tmp
    // could be created first, with code of theirs in it).
    let dir = match tempfile::Builder::new()
        .prefix("ranklift-choreo-")
        .rand_bytes(10)
        .tempdir()
    {
        Ok(d) => d.keep(),
        Err(e) => {
            eprintln!("error: cannot make a temporary directory: {e}");
            return ExitCode::from(2);
        }
    };
    let res = write_projection(p, &dir, false, false, false);
    if let Err(e) = res {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let mut cmd = std::process::Command::new(python);
    cmd.arg(dir.join("pychoral_rt.py"))
        .arg("run")
        .arg(&p.module_name)
        .arg(entry)
        .current_dir(&dir);
    if tcp {
        cmd.arg("--tcp");
    }
    if stream {
        cmd.arg("--stream");
    }
    let status = cmd.status();
    if status.as_ref().is_ok_and(|s| s.success()) {
        let _ = std::fs::remove_dir_all(&dir);
    }
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(_) => {
            // Tracebacks point into the choreography; the projection stays for a closer look.
            eprintln!(
                "ranklift: a role failed; the projection it ran is kept in {}",
                dir.display()
            );
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: cannot run `{python}`: {e} (set --python or PYCHORAL_PYTHON)");
            ExitCode::from(2)
        }
    }
}
