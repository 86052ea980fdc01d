//! Jupyter notebooks (`.ipynb`, nbformat 4, and 3 — whose cells sit in `worksheets` and keep
//! their code in `input`): the code cells, in order, as one Python program.
//!
//! Each code cell contributes its lines, so a line of the program maps back to one cell and a
//! line in it ([`Notebook::relocate`]). IPython syntax that is not Python is replaced line for
//! line (the line count never changes) by Python that means as little as possible:
//!
//! - a line magic or shell escape (`%timeit f(x)`, `!pip install x`, `?np.dot`, `np.dot?`)
//!   becomes `pass` at the same indentation;
//! - an assignment from one (`files = !ls`, `t = %timeit -o f()`) keeps its target, bound to a
//!   value the analysis knows nothing about;
//! - a cell magic whose body is Python (`%%time`, `%%timeit`, `%%capture`, `%%prun`) keeps the
//!   body; any other cell magic (`%%bash`, `%%writefile`, `%%html`, ...) is not Python, and the
//!   whole cell is blanked.
//!
//! Notebooks whose kernel is not Python are rejected with a clear message.

use serde::Deserialize;

use crate::diagnostics::Diagnostic;

/// A notebook's code as one program.
#[derive(Debug, Clone)]
pub struct Notebook {
    /// The code cells, joined (each ends with a newline).
    pub python: String,
    /// `(cell number (1-based, counting every cell as an editor shows them), first line of the
    /// cell in `python` (1-based))`, in order.
    cells: Vec<(usize, usize)>,
    /// Cells that do not parse (each reported at its cell, and left out of [`Self::python`]).
    pub syntax_errors: Vec<Diagnostic>,
}

#[derive(Deserialize)]
struct RawNotebook {
    #[serde(default)]
    cells: Vec<RawCell>,
    /// nbformat 3: the cells are in worksheets (in practice one).
    #[serde(default)]
    worksheets: Vec<RawWorksheet>,
    #[serde(default)]
    metadata: serde_json::Value,
    nbformat: Option<u32>,
}

#[derive(Deserialize)]
struct RawWorksheet {
    #[serde(default)]
    cells: Vec<RawCell>,
}

#[derive(Deserialize)]
struct RawCell {
    cell_type: String,
    #[serde(default)]
    source: Source,
    /// nbformat 3: a code cell's code.
    #[serde(default)]
    input: Option<Source>,
    /// nbformat 3: a code cell's language.
    #[serde(default)]
    language: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Source {
    One(String),
    Lines(Vec<String>),
}

impl Default for Source {
    fn default() -> Self {
        Source::One(String::new())
    }
}

/// The first line of the joined program: the names IPython defines in every notebook's
/// namespace, bound to values the analysis knows nothing about.
const PRELUDE: &str = "from IPython.display import display; from IPython import get_ipython; In = Out = _ = __ = ___ = _i = _ii = _iii = _ih = _oh = get_ipython()\n";

/// Cell magics whose body IPython runs as Python.
const PYTHON_CELL_MAGICS: [&str; 5] = ["time", "timeit", "capture", "prun", "debug"];

impl Notebook {
    /// Read a notebook from its JSON text. The error says what is wrong, for a diagnostic.
    /// `display` is the notebook's path as diagnostics show it.
    pub fn parse(json: &str, display: &str) -> Result<Notebook, String> {
        let raw: RawNotebook = serde_json::from_str(json)
            .map_err(|e| format!("not a Jupyter notebook (invalid nbformat JSON: {e})"))?;
        if raw.nbformat.is_some_and(|v| v < 3) {
            return Err(format!(
                "nbformat {} is not supported (3 and 4 are); upgrade it with `jupyter nbconvert --to notebook --inplace`",
                raw.nbformat.unwrap_or_default()
            ));
        }
        let mut raw = raw;
        if raw.cells.is_empty() {
            raw.cells = std::mem::take(&mut raw.worksheets)
                .into_iter()
                .flat_map(|w| w.cells)
                .collect();
        }
        let language = raw
            .metadata
            .pointer("/language_info/name")
            .or_else(|| raw.metadata.pointer("/kernelspec/language"))
            .or_else(|| raw.metadata.pointer("/language"))
            .and_then(|v| v.as_str())
            .or_else(|| raw.cells.iter().find_map(|c| c.language.as_deref()));
        if let Some(lang) = language
            && !lang.eq_ignore_ascii_case("python")
        {
            return Err(format!("the notebook's kernel runs {lang}, not Python"));
        }
        let mut python = String::from(PRELUDE);
        let mut cells = Vec::new();
        let mut syntax_errors = Vec::new();
        let mut line = 2;
        for (i, cell) in raw.cells.iter().enumerate() {
            if cell.cell_type != "code" {
                continue;
            }
            let text = match cell.input.as_ref().unwrap_or(&cell.source) {
                Source::One(s) => s.clone(),
                Source::Lines(v) => v.concat(),
            };
            cells.push((i + 1, line));
            let code = cell_python(&text);
            let n = text.lines().count();
            if crate::parse::parses(&code).is_ok() {
                python.push_str(&code);
            } else {
                // IPython would reject this cell alone; the others still run.
                let file = crate::source::SourceFile {
                    path: display.into(),
                    text: code,
                    encoding: crate::source::Encoding::Utf8,
                };
                if let Err(d) = crate::parse::ParsedModule::parse(file, display) {
                    let mut d = *d;
                    d.cell = Some(i + 1);
                    d.source = None;
                    d.hint = Some(
                        "IPython cannot run this cell either; the analysis leaves it out".into(),
                    );
                    syntax_errors.push(d);
                }
                python.push_str(&"\n".repeat(n));
            }
            line += n;
        }
        Ok(Notebook {
            python,
            cells,
            syntax_errors,
        })
    }

    /// The cell number and the line in it of line `line` (1-based) of [`Self::python`].
    pub fn locate(&self, line: usize) -> (usize, usize) {
        let at = self.cells.partition_point(|&(_, first)| first <= line);
        match at.checked_sub(1).map(|i| self.cells[i]) {
            Some((cell, first)) => (cell, line - first + 1),
            None => (1, line),
        }
    }

    /// Point a diagnostic made on [`Self::python`] at its cell and line. The snippet is dropped:
    /// its line numbers would be the joined program's.
    pub fn relocate(&self, d: &mut Diagnostic) {
        let (cell, line) = self.locate(d.line);
        let (end_cell, end) = self.locate(d.end_line);
        d.cell = Some(cell);
        d.end_line = if end_cell == cell { end } else { line };
        d.line = line;
        d.source = None;
        d.notes.clear();
    }
}

/// A code cell as Python, line for line (each line ends with a newline).
fn cell_python(text: &str) -> String {
    let mut out = String::new();
    let mut blank_rest = false;
    // Open brackets (or a final backslash) of a magic line: its logical line goes on.
    let mut continuing = false;
    let mut depth: i32 = 0;
    for (n, l) in text.lines().enumerate() {
        if blank_rest || continuing {
            if continuing {
                depth += bracket_balance(l);
                continuing = depth > 0 || l.ends_with('\\');
            }
        } else if n == 0
            && let Some(magic) = l.trim_start().strip_prefix("%%")
        {
            let name = magic.split_whitespace().next().unwrap_or_default();
            blank_rest = !PYTHON_CELL_MAGICS.contains(&name);
        } else {
            let py = python_line(l);
            if py != l {
                depth = bracket_balance(l);
                continuing = depth > 0 || l.ends_with('\\');
            }
            out.push_str(&py);
        }
        out.push('\n');
    }
    out
}

/// Opening minus closing brackets on a line, outside string literals (roughly: no triple quotes).
fn bracket_balance(l: &str) -> i32 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in l.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => quote = Some(c),
                '#' => break,
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            },
        }
    }
    depth
}

/// One line of a code cell as Python: IPython's escapes replaced, the rest unchanged.
fn python_line(l: &str) -> String {
    let body = l.trim_start();
    let indent = &l[..l.len() - body.len()];
    // `%run helper.py`: the script runs in the notebook's namespace, and its names stay there.
    if let Some(rest) = body.strip_prefix("%run ") {
        let script = rest.split_whitespace().find(|w| w.ends_with(".py"));
        if let Some(stem) = script.and_then(|w| w.strip_suffix(".py"))
            && !stem.is_empty()
            && stem.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !stem.starts_with(|c: char| c.is_ascii_digit())
        {
            return format!("{indent}from {stem} import *");
        }
    }
    if body.starts_with('%') || body.starts_with('!') || body.starts_with('?') {
        return format!("{indent}pass");
    }
    // `obj?` / `obj??`: help (not a comment, not inside a string on one line).
    if body.ends_with('?') && !body.contains('#') && !body.contains(['"', '\'']) {
        return format!("{indent}pass");
    }
    // `name = !cmd`, `a, b = %magic ...`
    if let Some((target, value)) = body.split_once('=') {
        let value = value.trim_start();
        let simple_target = !target.is_empty()
            && target
                .trim()
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ',' || c == ' ');
        if simple_target && (value.starts_with('!') || value.starts_with('%')) {
            return format!(
                "{indent}{} = __import__(\"IPython\").get_ipython()",
                target.trim()
            );
        }
    }
    l.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nb(cells: &[(&str, &str)]) -> String {
        let cells: Vec<serde_json::Value> = cells
            .iter()
            .map(|(kind, src)| {
                serde_json::json!({"cell_type": kind, "metadata": {}, "source": src.split_inclusive('\n').collect::<Vec<_>>()})
            })
            .collect();
        serde_json::json!({"cells": cells, "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}).to_string()
    }

    #[test]
    fn nbformat_3_reads_the_worksheets_cells_input() {
        // The layout nbformat 3 writes (IPython 1.x/2.x): cells in worksheets, code in `input`,
        // headings as cells of their own.
        let json = r#"{"metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0,
            "worksheets": [{"cells": [
                {"cell_type": "heading", "level": 1, "metadata": {}, "source": ["Title"]},
                {"cell_type": "code", "collapsed": false, "input": ["import numpy as np\n", "x = np.zeros((2, 3))"], "language": "python", "metadata": {}, "outputs": []},
                {"cell_type": "code", "collapsed": false, "input": "y = x.T", "language": "python", "metadata": {}, "outputs": []}
            ], "metadata": {}}]}"#;
        let n = Notebook::parse(json, "old.ipynb").unwrap();
        assert!(
            n.python
                .ends_with("import numpy as np\nx = np.zeros((2, 3))\ny = x.T\n"),
            "{}",
            n.python
        );
        // Line 3 of the program is the second line of the second cell (the heading is cell 1).
        assert_eq!(n.locate(3), (2, 2));
        assert_eq!(n.locate(4), (3, 1));
        // A cell of another language says so.
        let r = json.replace("\"language\": \"python\"", "\"language\": \"julia\"");
        assert!(
            Notebook::parse(&r, "old.ipynb")
                .unwrap_err()
                .contains("julia")
        );
        // nbformat 2 and older are still refused, with the way to upgrade.
        let old = r#"{"metadata": {}, "nbformat": 2, "worksheets": []}"#;
        assert!(
            Notebook::parse(old, "older.ipynb")
                .unwrap_err()
                .contains("nbconvert")
        );
    }

    #[test]
    fn cells_join_and_map_back() {
        let n = Notebook::parse(
            &nb(&[
                ("markdown", "# title\n"),
                ("code", "import numpy as np\nx = 1"),
                (
                    "code",
                    "%matplotlib inline\nfiles = !ls\nfor f in files:\n    !echo {f}\nnp.dot?",
                ),
                ("code", "%%bash\necho hi\n"),
                ("code", "%%time\ny = x + 1\n"),
                (
                    "code",
                    "%timeit np.fromiter((a for a in x),\n    dtype=float)\nz = (1,\n 2)",
                ),
                ("code", "x.loc[(:, 1)]\n"),
            ]),
            "nb.ipynb",
        )
        .unwrap();
        assert_eq!(
            n.python,
            format!(
                "{PRELUDE}import numpy as np\nx = 1\npass\nfiles = __import__(\"IPython\").get_ipython()\nfor f in files:\n    pass\npass\n\n\n\ny = x + 1\npass\n\nz = (1,\n 2)\n\n"
            )
        );
        crate::parse::parses(&n.python).unwrap();
        assert_eq!(n.locate(2), (2, 1));
        assert_eq!(n.locate(3), (2, 2));
        assert_eq!(n.locate(5), (3, 2));
        assert_eq!(n.locate(12), (5, 2));
        // The cell that does not parse is reported at its place and left out.
        let e = &n.syntax_errors;
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].cell, e[0].line, e[0].column), (Some(7), 1, 8));
    }

    #[test]
    fn run_magic_imports_the_script_names() {
        assert_eq!(python_line("%run -i init.py 3"), "from init import *");
        assert_eq!(python_line("  %run ../x/init.py"), "  pass");
        assert_eq!(python_line("%timeit f(x)"), "pass");
        assert_eq!(
            python_line("a, b = %sx ls"),
            "a, b = __import__(\"IPython\").get_ipython()"
        );
        assert_eq!(python_line("x = y != z"), "x = y != z");
        assert_eq!(python_line("np.dot?"), "pass");
    }

    #[test]
    fn other_languages_and_bad_json_are_errors() {
        let r = Notebook::parse(
            r#"{"cells": [], "metadata": {"kernelspec": {"language": "R"}}, "nbformat": 4}"#,
            "r.ipynb",
        );
        assert!(r.unwrap_err().contains("runs R, not Python"));
        assert!(
            Notebook::parse("{", "x.ipynb")
                .unwrap_err()
                .starts_with("not a Jupyter notebook")
        );
    }
}
