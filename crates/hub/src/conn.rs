//! One connection's byte stream, as the server hands it to hyper: hyper answers a request it cannot
//! parse (a bad request line, a URL over its 64 KiB limit, headers over its buffer) by itself, before
//! the hub sees it, with an empty body. [`JsonRefusals`] rewrites exactly those answers into the hub's
//! documented `{ error, message }` JSON on their way out, so that every refusal is JSON.
//!
//! The hub's own error answers are never empty (`error::json_refusal` makes them all JSON), so an
//! error status with `content-length: 0` and `connection: close` can only be one of hyper's.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::code_of_status;

pub struct JsonRefusals<T> {
    inner: T,
    /// A rewritten answer still being written.
    pending: Vec<u8>,
    written: usize,
}

impl<T> JsonRefusals<T> {
    pub fn new(inner: T) -> Self {
        Self {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// hyper's own answer to a request it could not parse, as the JSON answer it becomes.
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let rest = text.strip_prefix("HTTP/1.1 ")?;
    if !(rest.starts_with('4') || rest.starts_with('5')) || !text.ends_with("\r\n\r\n") {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    if !lower.contains("\r\ncontent-length: 0\r\n") || !lower.contains("\r\nconnection: close\r\n")
    {
        return None;
    }
    let status_line = text.split("\r\n").next()?;
    let status = axum::http::StatusCode::from_u16(rest.get(..3)?.parse().ok()?).ok()?;
    let message = match status.as_u16() {
        414 => "The request's URL is too long.",
        431 => "The request's headers are too large.",
        _ => "The hub could not read this request.",
    };
    let body =
        serde_json::json!({ "error": code_of_status(status), "message": message }).to_string();
    let mut out = format!(
        "{status_line}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body.as_bytes());
    Some(out)
}

impl<T: AsyncWrite + Unpin> JsonRefusals<T> {
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n = std::task::ready!(
                Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..])
            )?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonRefusals<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        std::task::ready!(self.drain(cx))?;
        if buf.len() < 512 {
            if let Some(answer) = rewrite(buf) {
                self.pending = answer;
                // The rewritten answer stands for all of `buf`; flush and shutdown finish writing it.
                let _ = self.drain(cx)?;
                return Poll::Ready(Ok(buf.len()));
            }
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_empty_error_answers_are_rewritten() {
        let hyper_414 = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\ndate: Mon, 30 Nov 2026 07:47:08 GMT\r\n\r\n";
        let out = String::from_utf8(rewrite(hyper_414).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 414 URI Too Long\r\n"));
        let body: serde_json::Value =
            serde_json::from_str(out.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(body["error"], "uri_too_long");
        assert!(rewrite(
            b"HTTP/1.1 204 No Content\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
        )
        .is_none());
        assert!(rewrite(b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n").is_none());
        assert!(rewrite(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
