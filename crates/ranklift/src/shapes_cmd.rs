//! `ranklift shapes`.
//!
//! Output (text): one line per finding, `path:LINE:COL: CODE message` (1-based, as Ruff and
//! editors; `--columns 0` for Pytropos' 0-based columns), in source order, on stdout, then a
//! summary line (`crate::report`).
//! Exit codes: 0 clean, 1 findings, 2 fatal (unreadable file, syntax error, usage).

use std::path::PathBuf;
use std::process::ExitCode;

use ranklift_python::Diagnostic;
use ranklift_python::config::{Config, Ignores};
use ranklift_shapes::check::{self, Options};
use ranklift_shapes::numpy::NumpyVersion;

use crate::config_cmd::parse_value;
use crate::report;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  ranklift shapes                       # the current directory
  ranklift shapes src/model.py --hints  # one file, with the source and a hint under each finding
  ranklift shapes --possible --format json notebooks/
  cat model.py | ranklift shapes - --stdin-filename model.py

Exit codes: 0 nothing found, 1 findings, 2 an input could not be read or parsed (or a usage error).")]
pub struct Args {
    /// Python files, notebooks, or directories to search for them (default: `.`); `-` reads
    /// one file from standard input.
    paths: Vec<PathBuf>,
    /// Also report errors that may happen (for some values of what is unknown), with the reason.
    #[arg(long)]
    possible: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Column numbering: 1 (editors, Ruff, CPython; the default) or 0 (Pytropos).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=1))]
    columns: Option<u8>,
    /// Show the source snippet and a hint under each finding (text format).
    #[arg(long)]
    hints: bool,
    /// Interpreter steps per file before the analysis stops with a note (a backstop).
    /// [default: 300000]
    #[arg(long)]
    fuel: Option<u64>,
    /// Seconds one file's analysis may take before it stops with a note (RL003), as `--fuel`
    /// bounds its steps. [default: 20]
    #[arg(long, value_name = "SECONDS")]
    time_budget: Option<f64>,
    /// The Python version the code must run on (e.g. 3.9): newer syntax is a fatal error.
    #[arg(long, value_parser = parse_python_version)]
    python_version: Option<(u8, u8)>,
    /// The NumPy the code runs with: 2 (2.x, the default) or 1 (1.24 to 1.26). Names that
    /// version lacks (`np.float`, `np.product` in 2.x) are errors, and messages are its own.
    #[arg(long, value_parser = ranklift_shapes::numpy::NumpyVersion::parse)]
    numpy_version: Option<ranklift_shapes::numpy::NumpyVersion>,
    /// Codes (or code prefixes such as `W5`) not to report, comma-separated; added to the
    /// configuration's `ignore`.
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    ignore: Vec<String>,
    /// Paths to leave out of directory walks, replacing the defaults (`venv`, `.venv`, `build`,
    /// `dist`, `site-packages`, … — the README lists them): names or globs, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "PATTERNS")]
    exclude: Vec<String>,
    /// Paths to leave out in addition to the default excludes.
    #[arg(long, value_delimiter = ',', value_name = "PATTERNS")]
    extend_exclude: Vec<String>,
    /// The file name to report (and to resolve imports from) when the source is read from
    /// standard input (`-`).
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<PathBuf>,
    /// Print per-file timings (parse, analysis) to stderr (used by bench/shapes.sh).
    #[arg(long, hide = true)]
    stats: bool,
    /// Say what the analysis understood: per file and overall, the share of expressions whose
    /// value it knows and of array and tensor shapes it knows fully, and the library attributes
    /// it does not model, most met first (with `--format json`: a `statistics` object).
    #[arg(long)]
    statistics: bool,
}

#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

/// The command line over the configuration file over the defaults.
struct Settings {
    options: Options,
    columns: u8,
    ignores: Ignores,
}

impl Settings {
    fn new(args: &Args, config: Option<&Config>) -> Result<Settings, ExitCode> {
        let mut options = Options {
            possible: args.possible,
            fuel: args.fuel.unwrap_or(Options::default().fuel),
            python_version: args.python_version,
            numpy: args.numpy_version.unwrap_or_default(),
            stop: None,
            types: false,
            time_budget: match args.time_budget {
                Some(t) if t > 0.0 && std::time::Duration::try_from_secs_f64(t).is_ok() => {
                    Some(std::time::Duration::from_secs_f64(t))
                }
                Some(_) => {
                    eprintln!("error: --time-budget: a positive number of seconds");
                    return Err(ExitCode::from(2));
                }
                None => Some(check::DEFAULT_TIME_BUDGET),
            },
            excludes: Config::excludes(config, &args.exclude, &args.extend_exclude).map_err(
                |d| {
                    eprint!("{}", d.render_text());
                    ExitCode::from(2)
                },
            )?,
        };
        let mut columns = args.columns.unwrap_or(1);
        let mut ignores = Ignores::default();
        if let Some(c) = config {
            let s = &c.shapes;
            options.possible |= s.possible.unwrap_or(false);
            if args.fuel.is_none()
                && let Some(f) = &s.fuel
            {
                options.fuel = *f.get_ref();
            }
            if args.python_version.is_none()
                && let Some(v) = &s.python_version
            {
                options.python_version =
                    Some(parse_value(c, v, "python-version", parse_python_version)?);
            }
            if args.numpy_version.is_none()
                && let Some(v) = &s.numpy_version
            {
                let text = toml::Spanned::new(v.span(), v.get_ref().as_string());
                options.numpy = parse_value(c, &text, "numpy-version", NumpyVersion::parse)?;
            }
            if args.columns.is_none()
                && let Some(v) = &s.columns
            {
                if *v.get_ref() > 1 {
                    let d = c
                        .error_at(v.span(), "invalid value for `columns`: use 0 or 1")
                        .with_hint("1 is the editors' numbering (the default), 0 Pytropos'");
                    eprint!("{}", d.render_text());
                    return Err(ExitCode::from(2));
                }
                columns = *v.get_ref();
            }
            ignores = Ignores::new(c).map_err(|d| {
                eprint!("{}", d.render_text());
                ExitCode::from(2)
            })?;
        }
        ignores.extend(&args.ignore);
        Ok(Settings {
            options,
            columns,
            ignores,
        })
    }
}

fn parse_python_version(s: &str) -> Result<(u8, u8), String> {
    let (a, b) = s.split_once('.').ok_or("expected MAJOR.MINOR, e.g. 3.11")?;
    let v = (
        a.parse().map_err(|_| "bad major version")?,
        b.parse().map_err(|_| "bad minor version")?,
    );
    if v.0 != 3 || !(7..=14).contains(&v.1) {
        return Err("supported: 3.7 to 3.14".to_owned());
    }
    Ok(v)
}

/// Largest source read from standard input (as for files: `SourceFile`'s bound).
const MAX_STDIN: u64 = 64 << 20;

pub fn run(mut args: Args, config: &crate::config_cmd::ConfigArgs) -> ExitCode {
    if args.paths.is_empty() {
        args.paths.push(PathBuf::from("."));
    }
    let stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
    if stdin && args.paths.len() > 1 {
        eprintln!("error: `-` (standard input) cannot be combined with other paths");
        return ExitCode::from(2);
    }
    // A missing input is reported; the others are still checked (exit 2 at the end).
    let before = args.paths.len();
    args.paths.retain(|p| {
        let found = p.as_os_str() == "-" || p.exists();
        if !found {
            report::no_such_file(p);
        }
        found
    });
    let missing = args.paths.len() < before;
    if args.paths.is_empty() {
        return ExitCode::from(2);
    }
    // One configuration for the whole run: the one that applies to the first path.
    let config_base = match (&args.stdin_filename, stdin) {
        (Some(f), true) => f.clone(),
        (None, true) => PathBuf::from("."),
        _ => args.paths[0].clone(),
    };
    let config = match config.resolve(&config_base) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let settings = match Settings::new(&args, config.as_ref()) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let opts = &settings.options;
    let results = if stdin {
        let mut text = String::new();
        let read = std::io::Read::read_to_string(
            &mut std::io::Read::take(std::io::stdin().lock(), MAX_STDIN + 1),
            &mut text,
        );
        if let Err(e) = read {
            eprintln!("error: cannot read standard input: {e}");
            return ExitCode::from(2);
        }
        if text.len() as u64 > MAX_STDIN {
            eprintln!(
                "error: standard input is larger than {} MiB",
                MAX_STDIN >> 20
            );
            return ExitCode::from(2);
        }
        let name = args
            .stdin_filename
            .clone()
            .unwrap_or_else(|| PathBuf::from("<stdin>"));
        vec![check::check_text(&name, text, opts)]
    } else {
        let files = check::collect_files_excluding(&args.paths, &opts.excludes);
        if files.is_empty() {
            let shown: Vec<String> = args
                .paths
                .iter()
                .map(|p| {
                    report::escape_controls(&report::display_path(&p.display().to_string()))
                        .into_owned()
                })
                .collect();
            anstream::eprintln!(
                "warning: no Python files found under {} (excluded directories are not searched; see --exclude)",
                shown.join(", ")
            );
            return ExitCode::SUCCESS;
        }
        check::check_paths(&args.paths, opts)
    };
    let mut fatal = false;
    let mut findings = false;
    let mut all: Vec<Diagnostic> = Vec::new();
    let mut total = ranklift_shapes::interp::coverage::CoverageSummary::default();
    let mut per_file: Vec<(String, ranklift_shapes::interp::coverage::CoverageSummary)> =
        Vec::new();
    let mut causes: Causes = Causes::new();
    for r in results {
        total.add(&r.coverage);
        if r.coverage.expressions > 0 {
            per_file.push((r.path.clone(), r.coverage.clone()));
        }
        for c in &r.causes {
            causes
                .entry(c.name.clone())
                .and_modify(|p| {
                    p.3 += c.uses;
                    p.4 += c.darkened;
                })
                .or_insert_with(|| (c.path.clone(), c.line, c.column, c.uses, c.darkened));
        }
        if args.stats {
            eprintln!(
                "stats {} parse_us={} analysis_us={}",
                r.path,
                r.parse_time.as_micros(),
                r.analysis_time.as_micros()
            );
        }
        if let Some(d) = r.fatal {
            fatal = true;
            all.push(d);
        }
        let kept = r.findings.into_iter().filter(|d| {
            !settings
                .ignores
                .ignored(std::path::Path::new(&d.path), d.code)
        });
        for d in kept {
            findings |= d.code != check::INCOMPLETE;
            all.push(d);
        }
    }
    report::relativize(&mut all, None);
    let shift = if settings.columns == 0 { 1 } else { 0 };
    match args.format {
        Format::Text => {
            let mut out = String::new();
            for d in &all {
                out.push_str(&report::render(d, shift, args.hints));
            }
            anstream::print!("{out}");
            for d in all.iter().filter(|d| d.code.starts_with("RL")) {
                if let Some(h) = &d.hint {
                    eprintln!(
                        "{}: help: {}",
                        report::escape_controls(&d.place()),
                        report::escape_controls(h)
                    );
                }
            }
        }
        Format::Json => {
            let items: Vec<serde_json::Value> = all
                .iter()
                .map(|d| {
                    let mut v = serde_json::to_value(d).unwrap_or_default();
                    if let Some(o) = v.as_object_mut() {
                        o.insert("column".into(), (d.column - shift).into());
                        o.insert("end_column".into(), (d.end_column - shift).into());
                    }
                    v
                })
                .collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&if args.statistics {
                    serde_json::json!({
                        "diagnostics": items,
                        "statistics": statistics_json(&total, &per_file, &causes),
                    })
                } else {
                    serde_json::json!({ "diagnostics": items })
                })
                .unwrap_or_default()
            );
        }
        Format::Sarif => println!(
            "{}",
            serde_json::to_string_pretty(&ranklift_python::diagnostics::to_sarif(
                "ranklift shapes",
                &all
            ))
            .unwrap_or_default()
        ),
    }
    if args.statistics && args.format == Format::Text {
        print!("{}", statistics_text(&total, &per_file, &causes));
    }
    // The summary says how much was understood: "nothing found" and "understood nothing" must
    // not read alike.
    let summary = report::summary(&all);
    let summary = format!("{} ({}).", summary.trim_end_matches('.'), total.headline());
    if args.format != Format::Text {
        anstream::eprintln!("{summary}");
    } else {
        anstream::println!("{summary}");
    }
    if fatal || missing {
        ExitCode::from(2)
    } else if findings {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Where a cause was first met (path, line, column), how often, and how many expressions it
/// left unknown.
type Place = (String, usize, usize, u32, u32);
type Causes = std::collections::BTreeMap<String, Place>;
type PerFile = [(String, ranklift_shapes::interp::coverage::CoverageSummary)];

/// Causes, most darkening first (then most met).
fn ranked(causes: &Causes) -> Vec<(&String, &Place)> {
    let mut v: Vec<_> = causes.iter().collect();
    v.sort_by(|a, b| (b.1.4, b.1.3).cmp(&(a.1.4, a.1.3)).then(a.0.cmp(b.0)));
    v
}

fn statistics_text(
    total: &ranklift_shapes::interp::coverage::CoverageSummary,
    per_file: &PerFile,
    causes: &Causes,
) -> String {
    let mut s = String::new();
    for (path, c) in per_file {
        s.push_str(&format!(
            "{}: {}\n",
            report::escape_controls(&report::display_path(path)),
            c.describe()
        ));
    }
    s.push_str(&format!("total: {}\n", total.describe()));
    if !causes.is_empty() {
        s.push_str("where values were lost, most expressions left unknown first:\n");
        for (name, (path, line, col, uses, dark)) in ranked(causes).into_iter().take(15) {
            let what = if ranklift_shapes::interp::coverage::is_analysis_limit(name) {
                name.clone()
            } else {
                format!("{name}: not modelled")
            };
            s.push_str(&format!(
                "  {}:{line}:{col}: {} — {dark} expression{} unknown after it ({uses} use{})\n",
                report::escape_controls(&report::display_path(path)),
                report::escape_controls(&what),
                if *dark == 1 { "" } else { "s" },
                if *uses == 1 { "" } else { "s" }
            ));
        }
        if total.unattributed > 0 {
            s.push_str(&format!(
                "  ({} unknown expression{} traced to no cause)\n",
                total.unattributed,
                if total.unattributed == 1 { "" } else { "s" }
            ));
        }
    }
    s
}

fn statistics_json(
    total: &ranklift_shapes::interp::coverage::CoverageSummary,
    per_file: &PerFile,
    causes: &Causes,
) -> serde_json::Value {
    let one = |c: &ranklift_shapes::interp::coverage::CoverageSummary| {
        serde_json::json!({
            "expressions": c.expressions,
            "understood": c.understood,
            "arrays": c.arrays,
            "arrays_rank_known": c.arrays_rank_known,
            "arrays_fully_known": c.arrays_fully_known,
            "tensor_expressions": c.tensor_expressions(),
            "unattributed": c.unattributed,
        })
    };
    serde_json::json!({
        "total": one(total),
        "files": per_file.iter().map(|(p, c)| {
            let mut v = one(c);
            v["path"] = report::display_path(p).into();
            v
        }).collect::<Vec<_>>(),
        "not_modelled": ranked(causes).into_iter().map(|(name, (path, line, col, uses, dark))| serde_json::json!({
            "name": name, "path": report::display_path(path), "line": line, "column": col,
            "uses": uses, "darkened": dark,
        })).collect::<Vec<_>>(),
    })
}
