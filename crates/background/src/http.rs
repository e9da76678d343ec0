//! HTTP from the background: every request has a time limit that covers the body, a byte cap, and
//! never follows a redirect (a redirect is an answer of its own: the standard's transport rules).

use gloo_net::http::{Method, RequestBuilder};
use js_sys::Uint8Array;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestRedirect, ResponseType};

use crate::browser::js_message;

/// What to send.
#[derive(Debug, Clone)]
pub struct HttpRequest<'a> {
    pub method: Method,
    pub url: &'a str,
    pub bearer: Option<&'a str>,
    pub json_body: Option<String>,
    pub timeout_ms: u32,
    pub max_bytes: usize,
}

/// What came back: the status and at most `max_bytes` of body.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    pub status: u16,
    /// The `Content-Type` header, lower-cased, without parameters.
    pub content_type: String,
    pub body: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    #[error("no answer within {0} ms")]
    Timeout(u32),
    #[error("could not reach it ({0})")]
    Unreachable(String),
    #[error("it answered with a redirect")]
    Redirected,
    #[error("its answer is larger than {0} bytes")]
    TooLarge(usize),
}

pub async fn send(req: HttpRequest<'_>) -> Result<HttpResponse, HttpError> {
    let controller = AbortController::new().map_err(|e| HttpError::Unreachable(js_message(&e)))?;
    let signal = controller.signal();
    let timeout_ms = req.timeout_ms;
    let timer = gloo_timers::callback::Timeout::new(timeout_ms, move || controller.abort());
    let out = send_inner(req, &signal).await;
    drop(timer);
    match out {
        Err(_) if signal.aborted() => Err(HttpError::Timeout(timeout_ms)),
        other => other,
    }
}

async fn send_inner(
    req: HttpRequest<'_>,
    signal: &web_sys::AbortSignal,
) -> Result<HttpResponse, HttpError> {
    let unreachable = |e: &dyn std::fmt::Display| HttpError::Unreachable(e.to_string());
    let mut builder = RequestBuilder::new(req.url)
        .method(req.method)
        .redirect(RequestRedirect::Manual)
        .abort_signal(Some(signal));
    if let Some(grant) = req.bearer {
        builder = builder.header("Authorization", &format!("Bearer {grant}"));
    }
    let request = match req.json_body {
        Some(body) => builder
            .header("Content-Type", "application/json")
            .body(body),
        None => builder.build(),
    }
    .map_err(|e| unreachable(&e))?;
    let response = request.send().await.map_err(|e| unreachable(&e))?;
    if response.type_() == ResponseType::Opaqueredirect || (300..400).contains(&response.status()) {
        return Err(HttpError::Redirected);
    }
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let mut body = Vec::new();
    if let Some(stream) = response.body() {
        let reader: ReadableStreamDefaultReader = stream
            .get_reader()
            .dyn_into()
            .map_err(|_| HttpError::Unreachable("unreadable body".into()))?;
        loop {
            let chunk = JsFuture::from(reader.read())
                .await
                .map_err(|e| HttpError::Unreachable(js_message(&e)))?;
            let done = js_sys::Reflect::get(&chunk, &"done".into())
                .ok()
                .and_then(|d| d.as_bool())
                .unwrap_or(true);
            if done {
                break;
            }
            let value = js_sys::Reflect::get(&chunk, &"value".into()).unwrap_or_default();
            let bytes = Uint8Array::new(&value);
            if body.len() + bytes.length() as usize > req.max_bytes {
                let _ = reader.cancel();
                return Err(HttpError::TooLarge(req.max_bytes));
            }
            body.extend(bytes.to_vec());
        }
    }
    Ok(HttpResponse {
        status,
        content_type,
        body,
    })
}
