//! The HTTP port over `fetch`: every request has a time limit that covers the body, a byte cap,
//! and never follows a redirect (a redirect is an answer of its own: the standard's transport rules).
//! What to send and what an answer means are the logic's (`crate::logic::hub_api`).

use gloo_net::http::{Method as GlooMethod, RequestBuilder};
use js_sys::Uint8Array;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestRedirect, ResponseType};

use super::browser::js_message;
use crate::logic::ports::{Http, HttpError, HttpRequest, HttpResponse, Method};

/// `fetch` from the background.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fetch;

impl Http for Fetch {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
        send(request).await
    }
}

async fn send(req: HttpRequest) -> Result<HttpResponse, HttpError> {
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
    req: HttpRequest,
    signal: &web_sys::AbortSignal,
) -> Result<HttpResponse, HttpError> {
    let unreachable = |e: &dyn std::fmt::Display| HttpError::Unreachable(e.to_string());
    let method = match req.method {
        Method::Get => GlooMethod::GET,
        Method::Post => GlooMethod::POST,
        Method::Put => GlooMethod::PUT,
        Method::Delete => GlooMethod::DELETE,
    };
    let mut builder = RequestBuilder::new(&req.url)
        .method(method)
        .redirect(RequestRedirect::Manual)
        .abort_signal(Some(signal));
    if let Some(grant) = &req.bearer {
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
