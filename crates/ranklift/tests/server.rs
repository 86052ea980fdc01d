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
        let mut child = Command::new(env!("CARGO_BIN_EXE_ranklift"))
            .arg("server")
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
    let related = ds[0]["relatedInformation"].as_array().unwrap();
    assert!(
        related[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("help: "),
        "{related:?}"
    );

    // didChange, incremental: `(4, 2)` -> `(3, 2)` fixes it.
    let edit = |line: u32, a: u32, b: u32, text: &str, version: i32| {
        json!({
            "textDocument": { "uri": main_uri, "version": version },
            "contentChanges": [{ "range": { "start": { "line": line, "character": a }, "end": { "line": line, "character": b } }, "text": text }]
        })
    };
    c.notify("textDocument/didChange", edit(3, 24, 25, "3", 2));
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    let before = c.request("ranklift/stats", json!(null), &mut seen);

    // A comment line above: no code token changes, so nothing is analysed again.
    c.notify(
        "textDocument/didChange",
        edit(0, 0, 0, "# shapes of a batch\n", 3),
    );
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    // Back to the error, now one line lower: analysed again.
    c.notify("textDocument/didChange", edit(4, 24, 25, "4", 4));
    assert_eq!(codes(&c.diagnostics(&main_uri)), [("W504".to_owned(), 4)]);
    // Another comment: the finding moves with its code without an analysis (line 5 now).
    c.notify("textDocument/didChange", edit(0, 0, 0, "# two lines\n", 5));
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
    // The two notes (B's first different actions) are related information too.
    assert_eq!(ds[0]["relatedInformation"].as_array().unwrap().len(), 3);
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
    c.notify("textDocument/didChange", edit(5, 24, 25, "5", 6));
    assert_eq!(codes(&c.diagnostics(&main_uri)), []);
    std::fs::write(
        dir.path().join("ranklift.toml"),
        "[shapes]\nignor = [\"W5\"]\n",
    )
    .unwrap();
    c.notify("textDocument/didChange", edit(5, 24, 25, "6", 7));
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
