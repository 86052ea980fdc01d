//! `ranklift server` driven over stdio as an editor drives it: JSON-RPC messages framed with
//! `Content-Length` headers (written and read with `lsp-server`'s own framing, the code
//! rust-analyzer uses), through initialize, didOpen, didChange (incremental), didSave,
//! codeAction, publishDiagnostics, shutdown and exit.
//!
//! Expected findings are reasoned next to each step: `np.zeros((n, 3)) @ np.ones((4, 2))` is a
//! matmul of (4, 3) by (4, 2), which NumPy rejects (W504, as `ranklift shapes` reports it on
//! the same text); with `np.ones((3, 2))` it is fine.

use std::io::BufReader;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{Value, json};

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i32,
}

impl Client {
    fn start(dir: &std::path::Path) -> Client {
        Client::start_with(dir, &[])
    }

    fn start_with(dir: &std::path::Path, env: &[(&str, &str)]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ranklift"))
            .arg("server")
            .envs(env.iter().copied())
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Client {
            child,
            stdin,
            stdout,
            next_id: 1,
        }
    }

    fn send(&mut self, m: Message) {
        m.write(&mut self.stdin).unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(
            method.into(),
            params,
        )));
    }

    /// Send a request and read until its response (notifications on the way are kept).
    fn request(&mut self, method: &str, params: Value, seen: &mut Vec<Notification>) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(Message::Request(Request::new(
            RequestId::from(id),
            method.into(),
            params,
        )));
        loop {
            match Message::read(&mut self.stdout)
                .unwrap()
                .expect("server closed")
            {
                Message::Response(r) if r.id == RequestId::from(id) => {
                    assert!(r.error.is_none(), "{method}: {:?}", r.error);
                    return r.result.unwrap_or(Value::Null);
                }
                Message::Notification(n) => seen.push(n),
                _ => {}
            }
        }
    }

    /// The next publishDiagnostics for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            match Message::read(&mut self.stdout)
                .unwrap()
                .expect("server closed")
            {
                Message::Notification(n)
                    if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri =>
                {
                    return n.params["diagnostics"].as_array().unwrap().clone();
                }
                _ => {}
            }
        }
    }
}

fn uri(p: &std::path::Path) -> String {
    format!("file://{}", p.display())
}

fn codes(ds: &[Value]) -> Vec<(String, u64)> {
    ds.iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

const MAIN: &str =
    "import numpy as np\nfrom helpers import batch\n\nx = batch(4) @ np.ones((4, 2))\n";

#[test]
fn editor_session() {
    let dir = tempfile::tempdir().unwrap();
    let helpers = dir.path().join("helpers.py");
    std::fs::write(
        &helpers,
        "import numpy as np\n\n\ndef batch(n):\n    return np.zeros((n, 3))\n",
    )
    .unwrap();
    let main = dir.path().join("main.py");
    std::fs::write(&main, MAIN).unwrap();
    let main_uri = uri(&main);
    let mut c = Client::start(dir.path());
    let mut seen = Vec::new();
    let init = c.request(
        "initialize",
        json!({ "processId": null, "rootUri": uri(dir.path()), "capabilities": {} }),
        &mut seen,
    );
    // No UTF-8 offered: positions in UTF-16, and incremental sync.
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 2);
    c.notify("initialized", json!({}));

    // didOpen: (4, 3) @ (4, 2) on line 4 (0-based 3), from `batch(4)` to the end of the line.
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": main_uri, "languageId": "python", "version": 1, "text": MAIN } }),
    );
    let ds = c.diagnostics(&main_uri);
    assert_eq!(codes(&ds), [("W504".to_owned(), 3)], "{ds:?}");
    assert_eq!(ds[0]["range"]["start"]["character"], 4);
    assert_eq!(ds[0]["range"]["end"]["character"], 30);
    assert_eq!(ds[0]["source"], "ranklift");
    // The headline names the shapes; the hint is in the message once; NumPy's words are
    // related information.
    let message = ds[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("batch(4) @ np.ones((4, 2)): (4, 3) @ (4, 2)")
            && message.matches("help: ").count() == 1,
        "{message}"
    );
    let related = ds[0]["relatedInformation"].as_array().unwrap();
    assert!(
        related
            .iter()
            .all(|r| !r["message"].as_str().unwrap().starts_with("help: "))
            && related[0]["message"]
                .as_str()
                .unwrap()
                .starts_with("at run time: ValueError: matmul"),
        "{related:?}"
    );
    // The code link is the code's page.
    assert_eq!(
        ds[0]["codeDescription"]["href"],
        "https://github.com/ranklift/ranklift/blob/main/docs/rules.md#w504"
    );

    // Hover on `x` (line 4, column 1): the shape the analysis inferred, (4, 3) @ (4, 2) being
    // an error, is unknown; hover on nothing is null. Then the quick fix "ignore on this line".
    let hover = |c: &mut Client, line: u32, character: u32, seen: &mut Vec<Notification>| {
        c.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": main_uri }, "position": { "line": line, "character": character } }),
            seen,
        )
    };
    assert_eq!(hover(&mut c, 0, 2, &mut seen), Value::Null);
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": main_uri }, "range": ds[0]["range"], "context": { "diagnostics": ds } }),
        &mut seen,
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["title"], "Ignore W504 on this line");
    let e = &actions[0]["edit"]["changes"][&main_uri][0];
    assert_eq!(e["newText"], "  # ranklift: ignore[W504]");
    assert_eq!(e["range"]["start"], json!({ "line": 3, "character": 30 }));
    // Applied, the finding goes (the CLI honours the same comment); undone, it is back.
    let insert = |line: u32, col: u32, text: &str, version: i32| {
        json!({
            "textDocument": { "uri": main_uri, "version": version },
            "contentChanges": [{ "range": { "start": { "line": line, "character": col }, "end": { "line": line, "character": col } }, "text": text }]
        })
    };
    c.notify(
        "textDocument/didChange",
        insert(3, 30, "  # ranklift: ignore[W504]", 100),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": main_uri, "version": 101 }, "contentChanges": [{ "text": MAIN }] }),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), [("W504".to_owned(), 3)]);
    // A half-typed line below (a syntax error): the error is shown and the last analysis's
    // finding stays; fixed, the analysis runs again.
    c.notify("textDocument/didChange", insert(4, 0, "y = (", 102));
    let ds = c.diagnostics(&main_uri);
    assert_eq!(
        codes(&ds),
        [("W504".to_owned(), 3), ("RL001".to_owned(), 4)],
        "{ds:?}"
    );
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": main_uri, "version": 103 }, "contentChanges": [{ "text": format!("{MAIN}y = x.T\n") }] }),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), [("W504".to_owned(), 3)]);
    // Hover on `y` (line 5): `x` is unknown past the error, so nothing; on a clean program
    // the shape shows. Back to MAIN for what follows.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": main_uri, "version": 104 }, "contentChanges": [{ "text": "import numpy as np\n\nx = np.ones((4, 2))\ny = x.T\n" }] }),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    let h = hover(&mut c, 3, 0, &mut seen);
    assert_eq!(
        h["contents"]["value"], "```python\ny: ndarray (2, 4)\n```\n(shape inferred by ranklift)",
        "{h:?}"
    );
    let h = hover(&mut c, 3, 4, &mut seen);
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("x: ndarray (4, 2)"),
        "{h:?}"
    );
    // A torch tensor shows as one.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": main_uri, "version": 105 }, "contentChanges": [{ "text": "import torch\n\nx = torch.ones(4, 2)\ny = x.T\n" }] }),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    let h = hover(&mut c, 3, 0, &mut seen);
    assert_eq!(
        h["contents"]["value"], "```python\ny: Tensor (2, 4)\n```\n(shape inferred by ranklift)",
        "{h:?}"
    );
    // An unknown value says where it was lost.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": main_uri, "version": 105 }, "contentChanges": [{ "text": "import mystery\n\nz = mystery.load()\n" }] }),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    let h = hover(&mut c, 2, 0, &mut seen);
    assert!(
        h["contents"]["value"].as_str().unwrap().contains(
            "z: unknown shape (it comes from `mystery.load`, which the analysis does not model)"
        ),
        "{h:?}"
    );
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": main_uri, "version": 106 }, "contentChanges": [{ "text": MAIN }] }),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), [("W504".to_owned(), 3)]);

    // didChange, incremental: `(4, 2)` -> `(3, 2)` fixes it.
    let edit = |line: u32, a: u32, b: u32, text: &str, version: i32| {
        json!({
            "textDocument": { "uri": main_uri, "version": version },
            "contentChanges": [{ "range": { "start": { "line": line, "character": a }, "end": { "line": line, "character": b } }, "text": text }]
        })
    };
    c.notify("textDocument/didChange", edit(3, 24, 25, "3", 106));
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    let before = c.request("ranklift/stats", json!(null), &mut seen);

    // A comment line above: no code token changes, so nothing is analysed again.
    c.notify(
        "textDocument/didChange",
        edit(0, 0, 0, "# shapes of a batch\n", 107),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    // Back to the error, now one line lower: analysed again.
    c.notify("textDocument/didChange", edit(4, 24, 25, "4", 108));
    assert_eq!(codes(&c.diagnostics(&main_uri)), [("W504".to_owned(), 4)]);
    // Another comment: the finding moves with its code without an analysis (line 5 now).
    c.notify(
        "textDocument/didChange",
        edit(0, 0, 0, "# two lines\n", 109),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), [("W504".to_owned(), 5)]);
    let after = c.request("ranklift/stats", json!(null), &mut seen);
    assert_eq!(
        after["analyses"].as_u64().unwrap() - before["analyses"].as_u64().unwrap(),
        1
    );
    assert_eq!(
        after["reused"].as_u64().unwrap() - before["reused"].as_u64().unwrap(),
        2
    );

    // didSave of an imported module: the importer is analysed again with what is on disk.
    // batch now makes (n, 4): (4, 4) @ (4, 2) is fine.
    std::fs::write(
        &helpers,
        "import numpy as np\n\n\ndef batch(n):\n    return np.zeros((n, 4))\n",
    )
    .unwrap();
    let helpers_text = std::fs::read_to_string(&helpers).unwrap();
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri(&helpers), "languageId": "python", "version": 1, "text": helpers_text } }),
    );
    c.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri(&helpers) } }),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);

    // A choreography: E-KOC with the selections as a quick fix.
    let chor = dir.path().join("ask.py");
    let chor_uri = uri(&chor);
    let text = "from enum import Enum\nfrom pychoral import Role, At, Channel, Ch2\n\nA = Role(\"A\")\nB = Role(\"B\")\n\n\nclass Answer(Enum):\n    YES = \"YES\"\n    NO = \"NO\"\n\n\nclass Ask(Ch2[A, B]):\n    @staticmethod\n    def run(ch: Channel[object, A, B], n: At[int, A]) -> None:\n        if n > 0:\n            print(\"positive\" @ B)\n        else:\n            print(\"not positive\" @ B)\n";
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": chor_uri, "languageId": "python", "version": 1, "text": text } }),
    );
    let ds = c.diagnostics(&chor_uri);
    assert_eq!(codes(&ds), [("E-KOC".to_owned(), 15)], "{ds:?}");
    // The two notes (B's first different actions) are related information (the hint is in
    // the message).
    assert_eq!(ds[0]["relatedInformation"].as_array().unwrap().len(), 2);
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": chor_uri }, "range": ds[0]["range"], "context": { "diagnostics": ds } }),
        &mut seen,
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["kind"], "quickfix");
    let edits = actions[0]["edit"]["changes"][&chor_uri].as_array().unwrap();
    assert_eq!(edits.len(), 2);
    // Apply them as an editor does (last first), then send the whole new text.
    let mut fixed: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut sorted = edits.clone();
    sorted.sort_by_key(|e| std::cmp::Reverse(e["range"]["start"]["line"].as_u64()));
    for e in &sorted {
        let line = e["range"]["start"]["line"].as_u64().unwrap() as usize;
        let col = e["range"]["start"]["character"].as_u64().unwrap() as usize;
        let new = e["newText"].as_str().unwrap();
        fixed[line].insert_str(col, new);
    }
    let fixed = fixed.join("\n") + "\n";
    assert!(
        fixed
            .contains("            ch.select(Answer.YES @ A)\n            print(\"positive\" @ B)"),
        "{fixed}"
    );
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": chor_uri, "version": 2 }, "contentChanges": [{ "text": fixed }] }),
    );
    assert_eq!(codes(&c.diagnostics(&chor_uri)), []);

    // A configuration file that ignores W5 codes applies to the next analysis.
    std::fs::write(
        dir.path().join("ranklift.toml"),
        "[shapes]\nignore = [\"W5\"]\n",
    )
    .unwrap();
    c.notify("textDocument/didChange", edit(5, 24, 25, "5", 110));
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    std::fs::write(
        dir.path().join("ranklift.toml"),
        "[shapes]\nignor = [\"W5\"]\n",
    )
    .unwrap();
    c.notify("textDocument/didChange", edit(5, 24, 25, "6", 111));
    let ds = c.diagnostics(&main_uri);
    assert_eq!(codes(&ds), [("RL010".to_owned(), 0)], "{ds:?}");
    assert!(
        ds[0]["message"]
            .as_str()
            .unwrap()
            .contains("ranklift.toml:2:1: unknown field `ignor`"),
        "{ds:?}"
    );

    // shutdown, exit: the process ends with 0.
    assert_eq!(c.request("shutdown", json!(null), &mut seen), Value::Null);
    c.notify("exit", json!(null));
    drop(c.stdin);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = c.child.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn utf8_positions_when_the_client_offers_them() {
    let dir = tempfile::tempdir().unwrap();
    let main = dir.path().join("m.py");
    // `é` is one UTF-16 unit and two UTF-8 bytes: the finding (`np.zeros(...) @ ...`, after
    // the 11 characters `é = 1; y = `) starts at 12 in UTF-8 and 11 in UTF-16.
    let text = "import numpy as np\né = 1; y = np.zeros((2, 3)) @ np.ones((4, 2))\n";
    for (offer, want) in [(json!(["utf-8", "utf-16"]), 12), (json!(["utf-16"]), 11)] {
        let mut c = Client::start(dir.path());
        let mut seen = Vec::new();
        c.request(
            "initialize",
            json!({ "processId": null, "capabilities": { "general": { "positionEncodings": offer } } }),
            &mut seen,
        );
        c.notify("initialized", json!({}));
        c.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(&main), "languageId": "python", "version": 1, "text": text } }),
        );
        let ds = c.diagnostics(&uri(&main));
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert_eq!(ds[0]["range"]["start"]["character"], want, "{offer}");
        c.request("shutdown", json!(null), &mut seen);
        c.notify("exit", json!(null));
        let _ = c.child.wait();
    }
}

/// Write raw bytes to the server (frames ranklift's client would never send).
fn raw(c: &mut Client, bytes: &[u8]) {
    use std::io::Write;
    c.stdin.write_all(bytes).unwrap();
    c.stdin.flush().unwrap();
}

/// One message as plain JSON (lsp-server's reader cannot hold a response with `id: null`).
fn read_value(r: &mut impl std::io::BufRead) -> Value {
    let mut length = 0;
    loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    std::io::Read::read_exact(r, &mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Wait for the server to end; its exit code (None: a signal, e.g. an abort).
fn exit_code(c: &mut Client) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = c.child.try_wait().unwrap() {
            return status.code();
        }
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn initialized(dir: &std::path::Path) -> Client {
    let mut c = Client::start(dir);
    let mut seen = Vec::new();
    c.request("initialize", json!({ "capabilities": {} }), &mut seen);
    c.notify("initialized", json!({}));
    c
}

#[test]
fn shutdown_is_answered_at_once_while_a_big_document_is_analysed() {
    // 360 KB with a finding in each of 6,000 functions and a non-ASCII comment on every line
    // (UTF-16 positions): converting findings to positions used to rescan the text for each
    // (4 s here, minutes on a larger file), on the loop that answers requests.
    let mut text = String::from("import numpy as np\n");
    for i in 0..6000 {
        text.push_str(&format!(
            "def f{i}():\n    return np.ones((2, 3)) @ np.ones((2, 3))  # é\n"
        ));
    }
    assert!(text.len() > 350_000);
    let dir = tempfile::tempdir().unwrap();
    let u = uri(&dir.path().join("big.py"));
    let open = |c: &mut Client| {
        c.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": u, "languageId": "python", "version": 1, "text": text } }),
        )
    };
    // All 6,000 findings arrive, each at its own line.
    let mut c = initialized(dir.path());
    open(&mut c);
    let ds = c.diagnostics(&u);
    assert_eq!(ds.len(), 6000);
    assert_eq!(ds[5999]["range"]["start"]["line"], 2 + 2 * 5999);
    drop(c);
    // While an analysis runs (held for 30 s by the tests' knob), shutdown is answered at once
    // and exit ends the process: the loop that answers never analyses.
    let mut c = Client::start_with(dir.path(), &[("RANKLIFT_TEST_ANALYSIS_DELAY_MS", "30000")]);
    let mut seen = Vec::new();
    c.request("initialize", json!({ "capabilities": {} }), &mut seen);
    open(&mut c);
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    assert_eq!(c.request("shutdown", json!(null), &mut seen), Value::Null);
    let took = sent.elapsed();
    assert!(took < Duration::from_secs(1), "shutdown took {took:?}");
    c.notify("exit", json!(null));
    assert_eq!(exit_code(&mut c), Some(0));
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "exit waited for the analysis"
    );
}

#[test]
fn absurd_frames_are_refused_without_allocating_and_bad_json_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    // Invalid JSON: a parse error (id null), and the server goes on.
    let mut c = initialized(dir.path());
    raw(&mut c, &frame("{not json"));
    let m = read_value(&mut c.stdout);
    assert_eq!(m["error"]["code"], -32700, "{m}");
    assert_eq!(m["id"], Value::Null, "{m}");
    let mut seen = Vec::new();
    let stats = c.request("ranklift/stats", json!(null), &mut seen);
    assert!(
        stats["analyses"].is_number(),
        "the server still answers: {stats}"
    );
    // Absurd lengths: the server neither aborts nor panics; the input ends inside the frame,
    // which is the end of the session (exit 1: no shutdown).
    for n in ["99999999999999", "18446744073709551615", "1500000000"] {
        let mut c = initialized(dir.path());
        raw(
            &mut c,
            format!("Content-Length: {n}\r\n\r\n{{}}").as_bytes(),
        );
        drop(std::mem::replace(
            &mut c.stdin,
            Command::new("true")
                .stdin(Stdio::piped())
                .spawn()
                .unwrap()
                .stdin
                .take()
                .unwrap(),
        ));
        assert_eq!(exit_code(&mut c), Some(1), "Content-Length {n}");
    }
}

#[test]
fn exit_without_shutdown_is_1_and_other_languages_and_cancelled_requests_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = initialized(dir.path());
    // A Markdown document with Python-looking text is not analysed; the Python one is.
    let bad = "import numpy as np\nx = np.zeros((2, 3)) @ np.ones((4, 2))\n";
    let md = uri(&dir.path().join("notes.md"));
    let py = uri(&dir.path().join("m.py"));
    for (u, lang) in [(&md, "markdown"), (&py, "python")] {
        c.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": u, "languageId": lang, "version": 1, "text": bad } }),
        );
    }
    let first = loop {
        match Message::read(&mut c.stdout).unwrap().unwrap() {
            Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => break n,
            _ => {}
        }
    };
    assert_eq!(first.params["uri"], py.as_str(), "{first:?}");
    // A request cancelled before the server reads it is answered as cancelled (-32800).
    c.notify("$/cancelRequest", json!({ "id": 77 }));
    c.send(Message::Request(Request::new(
        RequestId::from(77),
        "ranklift/stats".into(),
        json!(null),
    )));
    let r = loop {
        match Message::read(&mut c.stdout).unwrap().unwrap() {
            Message::Response(r) if r.id == RequestId::from(77) => break r,
            _ => {}
        }
    };
    assert_eq!(r.error.map(|e| e.code), Some(-32800));
    let mut seen = Vec::new();
    let stats = c.request("ranklift/stats", json!(null), &mut seen);
    assert_eq!(stats["analyses"], 1, "only the Python document: {stats}");
    // `exit` without `shutdown`: exit code 1.
    c.notify("exit", json!(null));
    assert_eq!(exit_code(&mut c), Some(1));
}

#[test]
fn an_analysis_over_its_time_budget_is_stopped_and_published() {
    // The analysis is held for 30 s (the tests' knob); the budget is 300 ms: the server stops it
    // and publishes what it has, instead of keeping the document's diagnostics stale.
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start_with(
        dir.path(),
        &[
            ("RANKLIFT_TEST_ANALYSIS_DELAY_MS", "30000"),
            ("RANKLIFT_SERVER_BUDGET_MS", "300"),
        ],
    );
    let mut seen = Vec::new();
    c.request("initialize", json!({ "capabilities": {} }), &mut seen);
    let u = uri(&dir.path().join("m.py"));
    let started = Instant::now();
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": u, "languageId": "python", "version": 1, "text": "x = 1\n" } }),
    );
    let _ = c.diagnostics(&u);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_pathological_glob_in_the_configuration_is_shown_on_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let pattern = format!("{}a{}", "{".repeat(200), "}".repeat(200));
    std::fs::write(
        dir.path().join("ranklift.toml"),
        format!("[shapes]\nper-file-ignores = {{ \"{pattern}\" = [\"W5\"] }}\n"),
    )
    .unwrap();
    let mut c = initialized(dir.path());
    let u = uri(&dir.path().join("m.py"));
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": u, "languageId": "python", "version": 1, "text": "x = 1\n" } }),
    );
    let ds = c.diagnostics(&u);
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(ds[0]["code"], "RL010", "{ds:?}");
    assert!(
        ds[0]["message"]
            .as_str()
            .unwrap()
            .contains("nested 200 deep"),
        "{ds:?}"
    );
    let mut seen = Vec::new();
    assert_eq!(c.request("shutdown", json!(null), &mut seen), Value::Null);
}
