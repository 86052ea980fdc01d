//! `ranklift server`: a Language Server over stdio (`lsp-server` + `lsp-types`, as
//! rust-analyzer and Ruff use them) that publishes, for each open Python file, the findings of
//! `ranklift shapes` or — for a PyChoral choreography — the errors of `ranklift choreo check`,
//! on open, change and save.
//!
//! - Each diagnostic carries its code, its hint and secondary notes as related information, and
//!   a quick fix where the analysis knows one (the `select`s an E-KOC needs), offered through
//!   `textDocument/codeAction`.
//! - Settings come from the file's `[tool.ranklift]` / `ranklift.toml` (`shapes` section), as on
//!   the command line; a bad configuration is reported at its line in the configuration file.
//! - Incremental (`state`): the documents are synced incrementally; a burst of changes is
//!   analysed once, at its end; only the changed document is analysed again — plus, on save,
//!   the open documents that import it; an edit that changes no token of code (a comment, blank
//!   lines) is not analysed at all: the previous findings are moved to their new places.
//! - Positions are UTF-16 unless the client offers UTF-8 (`positionEncoding`).

mod convert;
mod state;
mod transport;

use std::error::Error;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, select};
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, InitializeParams,
    PositionEncodingKind, SaveOptions, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};

pub use state::Server;
use transport::{Incoming, Outgoing};

type Result<T> = std::result::Result<T, Box<dyn Error + Send + Sync>>;

/// How long one document's analysis may run before it is stopped and what it found so far is
/// published (with the "budget exhausted" note). `RANKLIFT_SERVER_BUDGET_MS` overrides it.
const ANALYSIS_BUDGET: Duration = Duration::from_secs(10);

/// Serve on stdin/stdout until the client says `exit`. `Ok(true)` after `shutdown` then `exit`;
/// `Ok(false)` when the client exits without `shutdown` or the input ends (exit code 1, as the
/// protocol asks).
pub fn run_stdio() -> Result<bool> {
    serve(std::io::stdin(), std::io::stdout())
}

/// The whole session over `input` and `output`: a reader thread (bounded frames, see
/// `transport`), a writer thread, an analysis thread, and the main loop, which never analyses:
/// it answers every request at once, also while a document is being analysed.
pub fn serve(
    input: impl std::io::Read + Send + 'static,
    output: impl std::io::Write + Send + 'static,
) -> Result<bool> {
    let (in_tx, in_rx) = crossbeam_channel::unbounded::<Incoming>();
    let (out_tx, out_rx) = crossbeam_channel::unbounded::<Outgoing>();
    let writer = std::thread::spawn(move || transport::write_loop(output, out_rx));
    {
        let out_tx = out_tx.clone();
        std::thread::spawn(move || transport::read_loop(input, in_tx, out_tx));
    }
    let clean = session(&in_rx, &out_tx);
    let _ = out_tx.send(Outgoing::End);
    // Everything answered so far reaches the client before the process ends.
    let _ = writer.join();
    clean
}

fn send(out: &Sender<Outgoing>, m: Message) -> Result<()> {
    out.send(Outgoing::Message(m))
        .map_err(|_| "the client's output is closed".into())
}

fn session(input: &Receiver<Incoming>, out: &Sender<Outgoing>) -> Result<bool> {
    // `initialize` first: other requests are refused until it comes, notifications dropped.
    let (id, params) = loop {
        match input.recv() {
            Ok(Incoming::Message(Message::Request(r))) if r.method == "initialize" => {
                break (r.id, r.params);
            }
            Ok(Incoming::Message(Message::Request(r))) => send(
                out,
                Message::Response(Response::new_err(
                    r.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized".to_owned(),
                )),
            )?,
            Ok(Incoming::Message(Message::Notification(n))) if n.method == "exit" => {
                return Ok(false);
            }
            Ok(Incoming::Message(_)) => {}
            Ok(Incoming::Closed) | Err(_) => return Ok(false),
        }
    };
    let params: InitializeParams = match serde_json::from_value(params) {
        Ok(p) => p,
        Err(e) => {
            send(
                out,
                Message::Response(Response::new_err(
                    id,
                    ErrorCode::InvalidParams as i32,
                    format!("initialize: {e}"),
                )),
            )?;
            return Ok(false);
        }
    };
    let utf8 = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
    let capabilities = ServerCapabilities {
        position_encoding: Some(if utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": ServerInfo {
            name: "ranklift".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    send(out, Message::Response(Response::new_ok(id, result)))?;
    let mut server = Server::new(utf8);
    main_loop(input, out, &mut server)
}

/// The job the analysis thread is on: its document, version, stop flag and deadline.
struct Running {
    key: String,
    version: i32,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    deadline: Instant,
}

fn budget() -> Duration {
    std::env::var("RANKLIFT_SERVER_BUDGET_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(ANALYSIS_BUDGET, Duration::from_millis)
}

fn main_loop(
    input: &Receiver<Incoming>,
    out: &Sender<Outgoing>,
    server: &mut Server,
) -> Result<bool> {
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<state::Job>();
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<state::JobResult>();
    std::thread::Builder::new()
        .name("analysis".into())
        .stack_size(64 << 20)
        .spawn(move || {
            for job in job_rx {
                if done_tx.send(state::run_job(job)).is_err() {
                    return;
                }
            }
        })?;
    let budget = budget();
    let mut running: Option<Running> = None;
    let mut cancelled = std::collections::VecDeque::new();
    let mut shutting_down = false;
    loop {
        if running.is_none()
            && !shutting_down
            && let Some(job) = server.next_job()
        {
            running = Some(Running {
                key: job.key().to_owned(),
                version: job.version(),
                stop: job.stop.clone(),
                deadline: Instant::now() + budget,
            });
            job_tx.send(job)?;
        }
        let wait = running.as_ref().map_or(Duration::from_secs(3600), |r| {
            r.deadline.saturating_duration_since(Instant::now())
        });
        select! {
            recv(input) -> m => {
                // A burst of messages (keystrokes) is taken whole, then analysed once.
                let mut batch = vec![m.unwrap_or(Incoming::Closed)];
                while let Ok(more) = input.try_recv() {
                    batch.push(more);
                }
                if let Some(clean) =
                    handle_batch(batch, out, server, &mut shutting_down, &mut cancelled)?
                {
                    return Ok(clean);
                }
                if let Some(r) = &running
                    && (shutting_down || server.superseded(&r.key, r.version))
                {
                    // Out of date: stop it; the newer text is analysed next.
                    r.stop.store(true, Ordering::Relaxed);
                }
            }
            recv(done_rx) -> r => {
                running = None;
                if let Ok(r) = r
                    && let Some((uri, diagnostics, version)) = server.finish(r)
                {
                    let params = lsp_types::PublishDiagnosticsParams { uri, diagnostics, version };
                    send(out, Message::Notification(Notification::new(
                        PublishDiagnostics::METHOD.to_owned(),
                        params,
                    )))?;
                }
            }
            default(wait) => {
                if let Some(r) = &running {
                    // Over its budget: stop it and publish what it found.
                    r.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }
}

/// Handle a batch of messages. `Some(clean)` when the session ends (`exit`, or the input ended).
/// Ids of cancelled requests that have not arrived yet, at most this many (the oldest go).
const MAX_CANCELLED: usize = 256;

fn handle_batch(
    batch: Vec<Incoming>,
    out: &Sender<Outgoing>,
    server: &mut Server,
    shutting_down: &mut bool,
    cancelled: &mut std::collections::VecDeque<lsp_server::RequestId>,
) -> Result<Option<bool>> {
    // Requests the client cancelled before they were handled are answered as cancelled (every
    // other request is answered as soon as it is read, so a later cancel finds nothing to do).
    for m in &batch {
        if let Incoming::Message(Message::Notification(n)) = m
            && n.method == "$/cancelRequest"
            && let Ok(p) = serde_json::from_value::<lsp_types::CancelParams>(n.params.clone())
        {
            if cancelled.len() == MAX_CANCELLED {
                cancelled.pop_front();
            }
            cancelled.push_back(match p.id {
                lsp_types::NumberOrString::Number(i) => i.into(),
                lsp_types::NumberOrString::String(s) => s.into(),
            });
        }
    }
    for m in batch {
        let msg = match m {
            Incoming::Message(msg) => msg,
            Incoming::Closed => return Ok(Some(false)),
        };
        match msg {
            Message::Request(req) if cancelled.contains(&req.id) => {
                cancelled.retain(|c| *c != req.id);
                send(
                    out,
                    Message::Response(Response::new_err(
                        req.id,
                        ErrorCode::RequestCanceled as i32,
                        "cancelled by the client".to_owned(),
                    )),
                )?
            }
            Message::Request(req) if *shutting_down => send(
                out,
                Message::Response(Response::new_err(
                    req.id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".to_owned(),
                )),
            )?,
            Message::Request(req) if req.method == "shutdown" => {
                send(out, Message::Response(Response::new_ok(req.id, ())))?;
                *shutting_down = true;
            }
            Message::Request(req) => send(out, Message::Response(request(server, req)))?,
            // `exit` without `shutdown` first is an error exit (code 1), as the protocol says.
            Message::Notification(n) if n.method == "exit" => return Ok(Some(*shutting_down)),
            Message::Notification(_) if *shutting_down => {}
            Message::Notification(n) => notification(server, n),
            Message::Response(_) => {}
        }
    }
    Ok(None)
}

fn request(server: &Server, req: Request) -> Response {
    match req.method.as_str() {
        CodeActionRequest::METHOD => {
            match serde_json::from_value::<lsp_types::CodeActionParams>(req.params) {
                Ok(p) => Response::new_ok(req.id, server.code_actions(&p)),
                Err(e) => Response::new_err(
                    req.id,
                    lsp_server::ErrorCode::InvalidParams as i32,
                    e.to_string(),
                ),
            }
        }
        lsp_types::request::HoverRequest::METHOD => {
            match serde_json::from_value::<lsp_types::HoverParams>(req.params) {
                Ok(p) => Response::new_ok(req.id, server.hover(&p)),
                Err(e) => Response::new_err(
                    req.id,
                    lsp_server::ErrorCode::InvalidParams as i32,
                    e.to_string(),
                ),
            }
        }
        // How much work the edits so far took (tests and bench/server.py read it).
        "ranklift/stats" => Response::new_ok(
            req.id,
            serde_json::json!({ "analyses": server.analyses, "reused": server.reused }),
        ),
        _ => Response::new_err(
            req.id,
            lsp_server::ErrorCode::MethodNotFound as i32,
            format!("ranklift does not handle {}", req.method),
        ),
    }
}

fn notification(server: &mut Server, n: Notification) {
    match n.method.as_str() {
        DidOpenTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                && p.text_document.language_id.eq_ignore_ascii_case("python")
            {
                // Documents in other languages (Markdown, TOML, ...) are not ranklift's.
                server.open(
                    p.text_document.uri,
                    p.text_document.text,
                    p.text_document.version,
                );
            }
        }
        DidChangeTextDocument::METHOD => {
            if let Ok(p) =
                serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
            {
                server.change(
                    &p.text_document.uri,
                    p.text_document.version,
                    &p.content_changes,
                );
            }
        }
        DidSaveTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::DidSaveTextDocumentParams>(n.params)
            {
                server.saved(&p.text_document.uri);
            }
        }
        DidCloseTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
            {
                server.close(&p.text_document.uri);
            }
        }
        _ => {}
    }
}
