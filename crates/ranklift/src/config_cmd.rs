//! Finding the configuration file for a command: `--config FILE`, `--isolated`, or discovery from
//! the input upwards (`ranklift_python::config`). A bad file is reported at its line and the
//! command stops with exit code 2 before doing anything.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ranklift_python::config::Config;

/// The global options that choose the configuration.
#[derive(Clone, Default, clap::Args)]
pub struct ConfigArgs {
    /// Read settings from this file (a `pyproject.toml` with `[tool.ranklift]`, or a
    /// `ranklift.toml`) instead of discovering one from the input's directory upwards.
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,
    /// Ignore every configuration file.
    #[arg(long, global = true)]
    pub isolated: bool,
}

impl ConfigArgs {
    /// The configuration for `input`, or the exit code after the error was printed.
    pub fn resolve(&self, input: &Path) -> Result<Option<Config>, ExitCode> {
        let found = if self.isolated {
            Ok(None)
        } else if let Some(path) = &self.config {
            if !path.is_file() {
                eprintln!(
                    "error: --config {}: no such file",
                    crate::report::escape_controls(&path.display().to_string())
                );
                return Err(ExitCode::from(2));
            }
            Config::load(path).map(Some)
        } else {
            Config::discover_reporting(input, &mut |path, why| {
                eprintln!(
                    "warning: {}: {}",
                    crate::report::escape_controls(&path.display().to_string()),
                    crate::report::escape_controls(&why)
                );
            })
        };
        found.map_err(|d| {
            eprint!("{}", d.render_text());
            ExitCode::from(2)
        })
    }
}

/// Parse a configuration value with the command-line parser of the same option, reporting a
/// rejected value at its place in the file.
pub fn parse_value<T>(
    config: &Config,
    value: &toml::Spanned<String>,
    key: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<T, ExitCode> {
    parse(value.get_ref()).map_err(|e| {
        let d = config
            .error_at(value.span(), format!("invalid value for `{key}`: {e}"))
            .with_hint(format!(
                "the same values as the command line's --{key} are accepted"
            ));
        eprint!("{}", d.render_text());
        ExitCode::from(2)
    })
}
