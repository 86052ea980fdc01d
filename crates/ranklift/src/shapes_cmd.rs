//! `ranklift shapes`.
//!
//! Output (text): one line per finding, `path:LINE:COL: CODE message`, in source order, on
//! stdout — Pytropos' format (0-based column by default; `--columns 1` for 1-based).
//! Exit codes: 0 clean, 1 findings, 2 fatal (unreadable file, syntax error, usage).

use std::path::PathBuf;
use std::process::ExitCode;

use ranklift_python::Diagnostic;
use ranklift_python::config::{Config, Ignores};
use ranklift_shapes::check::{self, Options};
use ranklift_shapes::numpy::NumpyVersion;

use crate::config_cmd::parse_value;

#[derive(clap::Args)]
pub struct Args {
    /// Python files, or directories to search for `.py` files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Also report errors that may happen (for some values of what is unknown), with the reason.
    #[arg(long)]
    possible: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Column numbering: 0 (Pytropos, the default) or 1.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=1))]
    columns: Option<u8>,
    /// Show the source snippet and a hint under each finding (text format).
    #[arg(long)]
    hints: bool,
    /// Interpreter steps per file before the analysis stops with a note (a backstop).
    /// [default: 300000]
    #[arg(long)]
    fuel: Option<u64>,
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
    /// Print per-file timings (parse, analysis) to stderr (used by bench/shapes.sh).
    #[arg(long, hide = true)]
    stats: bool,
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
        };
        let mut columns = args.columns.unwrap_or(0);
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
                        .with_hint("0 is Pytropos' numbering, 1 the editors'");
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

pub fn run(args: Args, config: &crate::config_cmd::ConfigArgs) -> ExitCode {
    for p in &args.paths {
        if !p.exists() {
            eprintln!("error: {}: no such file or directory", p.display());
            return ExitCode::from(2);
        }
    }
    // One configuration for the whole run: the one that applies to the first path.
    let config = match config.resolve(&args.paths[0]) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let settings = match Settings::new(&args, config.as_ref()) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let opts = &settings.options;
    let results = check::check_paths(&args.paths, opts);
    let mut fatal = false;
    let mut findings = false;
    let mut all: Vec<Diagnostic> = Vec::new();
    for r in results {
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
    let shift = if settings.columns == 0 { 1 } else { 0 };
    match args.format {
        Format::Text => {
            let mut out = String::new();
            for d in &all {
                out.push_str(&format!(
                    "{}:{}: {} {}\n",
                    d.place(),
                    d.column - shift,
                    d.code,
                    d.message
                ));
                if args.hints {
                    let rendered = d.render_text();
                    // The first line repeats the headline.
                    if let Some((_, rest)) = rendered.split_once('\n') {
                        out.push_str(rest);
                    }
                }
            }
            print!("{out}");
            for d in all.iter().filter(|d| d.code.starts_with("RL")) {
                if let Some(h) = &d.hint {
                    eprintln!("{}: help: {h}", d.place());
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
                serde_json::to_string_pretty(&serde_json::json!({ "diagnostics": items }))
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
    if fatal {
        ExitCode::from(2)
    } else if findings {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
