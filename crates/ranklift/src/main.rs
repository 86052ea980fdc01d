//! The `ranklift` command line. Thin by design: argument parsing, output formats, file writes and
//! exit codes. All analysis lives in the library crates.

mod choreo_cmd;
mod config_cmd;
mod copy_tree;
mod distribute_cmd;
mod journal;
mod launch;
mod launch_cmd;
mod report;
mod rule_cmd;
mod shapes_cmd;
mod verify_cmd;
mod verify_engine;
mod write;

/// mimalloc: the analysis allocates many small maps and strings; measured faster than the system
/// allocator on bench/distribute.sh.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "ranklift",
    version,
    about = "Tools for machine-learning and distributed Python programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    config: config_cmd::ConfigArgs,
    /// Colour the output: `auto` on a terminal unless `NO_COLOR` is set.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    color: report::Color,
}

#[derive(Subcommand)]
enum Command {
    /// Rewrite a single-GPU training program into a data-parallel one (TensorFlow → Horovod,
    /// PyTorch → DistributedDataParallel).
    Distribute(distribute_cmd::Args),
    /// Find tensor-shape errors (NumPy) before the code runs, by abstract interpretation.
    Shapes(shapes_cmd::Args),
    /// PyChoral: check a choreography, project it into one Python class per role, run it.
    Choreo(choreo_cmd::Args),
    /// Language server over stdio: shapes findings and choreography errors in the editor.
    Server,
    /// Start N workers of a program distributed onto TensorFlow's own collectives (`TF_CONFIG`
    /// per worker), as `horovodrun -np N` starts Horovod ranks.
    Launch(launch_cmd::Args),
    /// RUN an original program and its distributed version (PyTorch: 1 process, then
    /// torchrun on 2) in scratch copies, and check the distributed one trains as it must.
    Verify(verify_cmd::Args),
    /// Explain a diagnostic code: what it means, why, an example and the fix.
    Rule(rule_cmd::Args),
    /// Walk and parse a project, nothing else (the baseline of bench/distribute.sh).
    #[command(hide = true)]
    ParseOnly { path: std::path::PathBuf },
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`ranklift shapes . | head -1`) would
    // panic. Behave as Unix tools do: end quietly when the reader goes away. Output files are
    // unaffected: every write is a transaction whose interruption is rolled back (`write`).
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    report::set_color(cli.color);
    match cli.command {
        Command::Distribute(args) => distribute_cmd::run(args, &cli.config),
        Command::Shapes(args) => shapes_cmd::run(args, &cli.config),
        Command::Choreo(args) => choreo_cmd::run(args),
        Command::Rule(args) => rule_cmd::run(args),
        Command::Launch(args) => launch_cmd::run(args),
        Command::Verify(args) => verify_cmd::run(args),
        Command::Server => match ranklift_server::run_stdio() {
            Ok(true) => ExitCode::SUCCESS,
            // `exit` without `shutdown`, or the input ended: 1, as the protocol asks.
            Ok(false) => ExitCode::from(1),
            Err(e) => {
                eprintln!("error: ranklift server: {e}");
                ExitCode::from(2)
            }
        },
        Command::ParseOnly { path } => {
            let p = if path.is_dir() {
                ranklift_python::Project::load_dir(&path, None, &|_, _| {})
            } else {
                ranklift_python::Project::load_file(&path, &|_| false)
            };
            let bytes: usize = p.modules.iter().map(|m| m.parsed.text.len()).sum();
            println!(
                "{} modules, {} bytes, {} errors",
                p.modules.len(),
                bytes,
                p.errors.len()
            );
            if p.errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
    }
}
