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

use std::error::Error;

use lsp_server::{Connection, Message, Notification, Request, Response};
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

type Result<T> = std::result::Result<T, Box<dyn Error + Send + Sync>>;

/// Serve on stdin/stdout until the client shuts the server down.
pub fn run_stdio() -> Result<()> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io_threads.join()?;
    Ok(())
}

/// The whole session on `connection`: initialize, the main loop, shutdown.
pub fn serve(connection: &Connection) -> Result<()> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params)?;
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
    connection.initialize_finish(id, result)?;
    let mut server = Server::new(utf8);
    main_loop(connection, &mut server)
}

fn main_loop(connection: &Connection, server: &mut Server) -> Result<()> {
    let mut shutting_down = false;
    while let Ok(first) = connection.receiver.recv() {
        // A burst of messages (keystrokes) is taken whole, then analysed once.
        let mut batch = vec![first];
        while let Ok(more) = connection.receiver.try_recv() {
            batch.push(more);
        }
        for msg in batch {
            match msg {
                Message::Request(req) => {
                    // `shutdown`: answer, then wait for `exit` (perhaps already in this batch).
                    if req.method == "shutdown" {
                        let resp = Response::new_ok(req.id, ());
                        connection.sender.send(Message::Response(resp))?;
                        shutting_down = true;
                        continue;
                    }
                    let resp = request(server, req);
                    connection.sender.send(Message::Response(resp))?;
                }
                Message::Notification(n) if n.method == "exit" => return Ok(()),
                Message::Notification(n) => notification(server, n),
                Message::Response(_) => {}
            }
        }
        if shutting_down {
            return wait_for_exit(connection);
        }
        for (uri, diagnostics, version) in server.analyse_dirty() {
            let params = lsp_types::PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            };
            connection
                .sender
                .send(Message::Notification(Notification::new(
                    PublishDiagnostics::METHOD.to_owned(),
                    params,
                )))?;
        }
    }
    Ok(())
}

/// After `shutdown`: every request is an error until `exit` (the reader thread stops there).
fn wait_for_exit(connection: &Connection) -> Result<()> {
    while let Ok(msg) = connection.receiver.recv() {
        match msg {
            Message::Notification(n) if n.method == "exit" => return Ok(()),
            Message::Request(req) => {
                let resp = Response::new_err(
                    req.id,
                    lsp_server::ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".to_owned(),
                );
                connection.sender.send(Message::Response(resp))?;
            }
            _ => {}
        }
    }
    Ok(())
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
            {
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
