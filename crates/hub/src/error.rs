//! The hub's one error type, mapped once ([`HubError::code`], [`HubError::status`]) to the wire: an HTTP
//! answer `{ "error": code, "message": text }` with its status, or the same object as a tool's error
//! result (`isError: true`). A grant its person revoked answers with the standard's `RevokedAnswer`
//! instead. Refusals made below the hub's handlers (axum's extractors, rmcp's transport, hyper's
//! parser) are rewritten into the same shape by [`json_refusal`].

use apc_core::page_link::{ErrorBody, PageLinkError};
pub use apc_core::{revoked_answer, RevokedAnswer};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::store::StoreError;

/// Why the hub refuses a request or a tool call (the server side; the extension's error for a failed
/// call to a hub is `HubCallError` in `apc-background`).
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    /// A refusal of the page app link, with its own code and status.
    #[error("{message}")]
    Page {
        kind: PageLinkError,
        message: String,
    },
    #[error("{}", .0.message)]
    Revoked(RevokedAnswer),
    /// A request whose `Host` is not this hub's (DNS rebinding).
    #[error("{0}")]
    HostRefused(String),
    /// A request to the MCP endpoint from a web page.
    #[error("{0}")]
    McpOriginRefused(String),
    /// A dock state change without the dock page's CSRF token, or from another origin.
    #[error("{0}")]
    CsrfRefused(String),
    /// A dock request without the dock's password (a hub listening beyond loopback).
    #[error("{0}")]
    PasswordRequired(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{0}")]
    NotSupported(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    TooLarge(String),
    /// A refusal made below the handlers, kept with its status (see [`json_refusal`]).
    #[error("{1}")]
    Transport(StatusCode, String),
    /// A tool's arguments do not fit its input schema.
    #[error("{0}")]
    InvalidArguments(String),
    #[error("{0}")]
    UnknownApp(String),
    #[error("{0}")]
    UnknownTool(String),
    #[error("{0}")]
    ReadingUnknown(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl HubError {
    pub fn page(kind: PageLinkError, message: impl Into<String>) -> Self {
        Self::Page {
            kind,
            message: message.into(),
        }
    }

    /// The wire's code of this error, in HTTP answers and tool results alike.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Page { kind, .. } => kind.code(),
            Self::Revoked(_) => apc_core::REVOKED_ERROR,
            Self::HostRefused(_) => "host_refused",
            Self::McpOriginRefused(_) => "origin_refused",
            Self::CsrfRefused(_) => "csrf_refused",
            Self::PasswordRequired(_) => "password_required",
            Self::NotFound(_) | Self::Store(StoreError::NoSuchAgent(_)) => "not_found",
            Self::MethodNotAllowed(_) => "method_not_allowed",
            Self::NotSupported(_) => "not_supported",
            Self::BadRequest(_) | Self::Store(StoreError::BadName) => "invalid_request",
            Self::TooLarge(_) => "too_large",
            Self::Transport(status, _) => code_of_status(*status),
            Self::InvalidArguments(_) => "invalid_arguments",
            Self::UnknownApp(_) => "unknown_app",
            Self::UnknownTool(_) => "unknown_tool",
            Self::ReadingUnknown(_) => "reading_unknown",
            Self::Store(StoreError::NameTaken(_)) => "name_taken",
            Self::Store(_) => "internal",
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Page { kind, .. } => {
                StatusCode::from_u16(kind.http_status()).unwrap_or(StatusCode::BAD_REQUEST)
            }
            Self::Revoked(_)
            | Self::HostRefused(_)
            | Self::McpOriginRefused(_)
            | Self::CsrfRefused(_) => StatusCode::FORBIDDEN,
            Self::PasswordRequired(_) => StatusCode::UNAUTHORIZED,
            Self::NotFound(_)
            | Self::Store(StoreError::NoSuchAgent(_))
            | Self::ReadingUnknown(_)
            | Self::UnknownApp(_)
            | Self::UnknownTool(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::NotSupported(_) => StatusCode::NOT_IMPLEMENTED,
            Self::BadRequest(_) | Self::InvalidArguments(_) | Self::Store(StoreError::BadName) => {
                StatusCode::BAD_REQUEST
            }
            Self::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Transport(status, _) => *status,
            Self::Store(StoreError::NameTaken(_)) => StatusCode::CONFLICT,
            Self::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The message the caller reads. The database's own words stay in the hub's log.
    pub fn message(&self) -> String {
        match self {
            Self::Store(e @ (StoreError::Db(_) | StoreError::Closed | StoreError::DataDir(..))) => {
                tracing::error!("database: {e}");
                "The hub could not read or write its database.".to_owned()
            }
            other => other.to_string(),
        }
    }

    /// The `{ error, message }` body.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.code().to_owned(),
            message: self.message(),
        }
    }
}

/// The code of a refusal known only by its HTTP status.
pub fn code_of_status(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "invalid_request",
        401 => "password_required",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        406 => "not_acceptable",
        408 => "request_timeout",
        409 => "conflict",
        413 => "too_large",
        414 => "uri_too_long",
        415 => "unsupported_media_type",
        422 => "invalid_request",
        431 => "headers_too_large",
        503 => "unavailable",
        s if s >= 500 => "internal",
        _ => "refused",
    }
}

impl IntoResponse for HubError {
    fn into_response(self) -> Response {
        if let Self::Revoked(answer) = self {
            return (StatusCode::FORBIDDEN, Json(answer)).into_response();
        }
        let mut response = (self.status(), Json(self.body())).into_response();
        if let Self::PasswordRequired(_) = self {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"apc-hub dock\", charset=\"UTF-8\""),
            );
        }
        response
    }
}

/// The most bytes of a lower layer's refusal text kept as the message.
const REFUSAL_TEXT_MAX: usize = 2048;

/// Middleware: an error answer that is not JSON (axum's extractor rejections, rmcp's transport
/// refusals) becomes `{ error, message }` with the same status, its text kept as the message.
pub async fn json_refusal(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, REFUSAL_TEXT_MAX)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_owned())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("The hub refused this request.")
            .to_owned()
    } else {
        text
    };
    let mut refused = HubError::Transport(status, message).into_response();
    // The lower layer's other headers (CORS, `Allow`, `WWW-Authenticate`) stay.
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            refused.headers_mut().insert(name.clone(), value.clone());
        }
    }
    refused
}

pub type HubResult<T> = Result<T, HubError>;
