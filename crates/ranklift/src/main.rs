//! The `ranklift` command line. Thin by design: argument parsing, output formats, file writes and
//! exit codes. All analysis lives in the library crates.

mod distribute_cmd;

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
}

#[derive(Subcommand)]
enum Command {
    /// Rewrite a single-GPU TensorFlow 2 training program into a Horovod data-parallel program.
    Distribute(distribute_cmd::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Distribute(args) => distribute_cmd::run(args),
    }
}
