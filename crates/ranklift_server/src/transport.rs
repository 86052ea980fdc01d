//! The wire: JSON-RPC messages framed with `Content-Length` headers over stdin/stdout.
//!
//! `lsp-server`'s own reader allocates whatever `Content-Length` says before reading (an absurd
//! length aborts the process, or panics with "capacity overflow") and stops at the first invalid
//! JSON. The editor's messages are untrusted input, so this reader bounds every part of a frame:
//! a header line is at most [`MAX_HEADER_LINE`] bytes and a frame has at most [`MAX_HEADERS`]
//! of them; a body longer than [`MAX_BODY`] is skipped in small chunks, never allocated; a body
//! that is not a JSON-RPC message is answered with a JSON-RPC parse error (`-32700`, id `null`)
//! and the server goes on.

use std::io::{BufRead, Read, Write};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::Message;

/// The largest message body accepted (a 360 KB document is far below it).
pub const MAX_BODY: u64 = 64 << 20;
/// The longest header line.
pub const MAX_HEADER_LINE: usize = 8 << 10;
/// Header lines in one frame.
pub const MAX_HEADERS: usize = 32;

/// What the reader hands to the main loop.
pub enum Incoming {
    Message(Message),
    /// The input ended (or cannot be read any more).
    Closed,
}

/// What the writer sends.
pub enum Outgoing {
    Message(Message),
    /// A response that `lsp_server::Response` cannot express (a parse error's `id: null`).
    Raw(serde_json::Value),
    /// The session is over: the writer stops after what came before (the reader may still hold
    /// a sender, blocked on its input).
    End,
}

/// Read frames from `input` until it ends, sending each message to `to`; answers malformed ones
/// through `out`. Runs on its own thread.
pub fn read_loop(input: impl Read, to: Sender<Incoming>, out: Sender<Outgoing>) {
    let mut input = std::io::BufReader::new(input);
    loop {
        match read_frame(&mut input) {
            Ok(Some(Frame::Body(body))) => match serde_json::from_slice::<Message>(&body) {
                Ok(m) => {
                    if to.send(Incoming::Message(m)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    // Not JSON at all: a parse error; JSON but not a message: an invalid request.
                    let (code, what) = match serde_json::from_slice::<serde_json::Value>(&body) {
                        Err(_) => (-32700, "not JSON"),
                        Ok(_) => (-32600, "not a JSON-RPC message"),
                    };
                    let _ = out.send(Outgoing::Raw(error_response(code, &format!("{what}: {e}"))));
                }
            },
            Ok(Some(Frame::Refused(why))) => {
                eprintln!("ranklift server: {why}");
                let _ = out.send(Outgoing::Raw(error_response(-32700, &why)));
            }
            Ok(None) | Err(_) => {
                let _ = to.send(Incoming::Closed);
                return;
            }
        }
    }
}

fn error_response(code: i32, message: &str) -> serde_json::Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": message },
    })
}

/// Write each message to `output` as a frame, flushing after each, until the channel closes.
pub fn write_loop(output: impl Write, from: Receiver<Outgoing>) {
    let mut output = std::io::BufWriter::new(output);
    for m in from {
        let ok = match m {
            Outgoing::Message(m) => m.write(&mut output).is_ok(),
            Outgoing::End => return,
            Outgoing::Raw(v) => {
                let body = v.to_string();
                write!(output, "Content-Length: {}\r\n\r\n{body}", body.len()).is_ok()
                    && output.flush().is_ok()
            }
        };
        if !ok {
            return;
        }
    }
}

pub enum Frame {
    Body(Vec<u8>),
    /// A frame that was read past but not accepted, and why.
    Refused(String),
}

/// One frame; `Ok(None)` at the end of the input.
pub fn read_frame(input: &mut impl BufRead) -> std::io::Result<Option<Frame>> {
    let mut length: Option<Result<u64, String>> = None;
    let mut headers = 0;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take(MAX_HEADER_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(None);
        }
        if line.len() > MAX_HEADER_LINE {
            // No way to find the next frame in a stream with a line this long: stop.
            return Err(std::io::Error::other("header line too long"));
        }
        if line == b"\r\n" || line == b"\n" {
            if headers == 0 {
                continue; // stray blank line between frames
            }
            break;
        }
        headers += 1;
        if headers > MAX_HEADERS {
            return Err(std::io::Error::other("too many header lines"));
        }
        let text = String::from_utf8_lossy(&line);
        if let Some((name, value)) = text.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            let v = value.trim();
            length = Some(
                v.parse::<u64>()
                    .map_err(|_| format!("Content-Length `{v:.40}` is not a length")),
            );
        }
    }
    let length = match length {
        None => {
            return Ok(Some(Frame::Refused(
                "a frame without Content-Length".into(),
            )));
        }
        Some(Err(why)) => return Err(std::io::Error::other(why)),
        Some(Ok(n)) => n,
    };
    if length > MAX_BODY {
        // Skipped, not allocated: read and drop it in chunks (to the end of the input if the
        // length is absurd).
        let skipped = std::io::copy(&mut input.by_ref().take(length), &mut std::io::sink())?;
        if skipped < length {
            return Ok(None);
        }
        return Ok(Some(Frame::Refused(format!(
            "a message of {length} bytes is larger than {MAX_BODY} bytes; it was skipped"
        ))));
    }
    let mut body = Vec::with_capacity(length as usize);
    input.by_ref().take(length).read_to_end(&mut body)?;
    if (body.len() as u64) < length {
        return Ok(None);
    }
    Ok(Some(Frame::Body(body)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut r = std::io::BufReader::new(input);
        let mut out = Vec::new();
        while let Ok(Some(f)) = read_frame(&mut r) {
            out.push(match f {
                Frame::Body(b) => String::from_utf8_lossy(&b).into_owned(),
                Frame::Refused(why) => format!("refused: {why}"),
            });
        }
        out
    }

    #[test]
    fn absurd_lengths_are_never_allocated() {
        for n in ["99999999999999", "18446744073709551615", "1500000000"] {
            let input = format!("Content-Length: {n}\r\n\r\n{{}}");
            // The input ends long before the length: nothing is returned, nothing allocated.
            assert!(frames(input.as_bytes()).is_empty(), "{n}");
        }
        let big = MAX_BODY + 3;
        let mut input = format!("Content-Length: {big}\r\n\r\n").into_bytes();
        input.resize(input.len() + big as usize, b' ');
        input.extend_from_slice(b"Content-Length: 2\r\n\r\n{}");
        let got = frames(&input);
        assert_eq!(got.len(), 2, "the next frame is still read");
        assert!(got[0].starts_with("refused"), "{got:?}");
        assert_eq!(got[1], "{}");
    }

    #[test]
    fn a_length_that_is_not_a_number_ends_the_stream() {
        assert!(frames(b"Content-Length: -1\r\n\r\n{}").is_empty());
        assert!(frames(b"Content-Length: 2\r\n\r\n{}Content-Length: x\r\n\r\n").len() == 1);
    }
}
