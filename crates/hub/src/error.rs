//! The hub's errors, mapped once to HTTP statuses and JSON bodies `{ "error": code, "message": text }`.
//! A grant its person revoked answers with the standard's `RevokedAnswer` instead.

use apc_core::page_link::{ErrorBody, PageLinkError};
pub use apc_core::{revoked_answer, RevokedAnswer};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::store::StoreError;

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
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{0}")]
    NotSupported(String),
    #[error("{0}")]
    BadRequest(String),
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

    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            Self::Page { kind, .. } => (
                StatusCode::from_u16(kind.http_status()).unwrap_or(StatusCode::BAD_REQUEST),
                kind.code(),
            ),
            Self::Revoked(_) => (StatusCode::FORBIDDEN, apc_core::REVOKED_ERROR),
            Self::HostRefused(_) => (StatusCode::FORBIDDEN, "host_refused"),
            Self::McpOriginRefused(_) => (StatusCode::FORBIDDEN, "origin_refused"),
            Self::CsrfRefused(_) => (StatusCode::FORBIDDEN, "csrf_refused"),
            Self::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            Self::MethodNotAllowed(_) => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            Self::NotSupported(_) => (StatusCode::NOT_IMPLEMENTED, "not_supported"),
            Self::BadRequest(_) => (StatusCode::BAD_REQUEST, "invalid_request"),
            Self::Store(StoreError::NameTaken(_)) => (StatusCode::CONFLICT, "name_taken"),
            Self::Store(StoreError::NoSuchAgent(_)) => (StatusCode::NOT_FOUND, "not_found"),
            Self::Store(StoreError::BadName) => (StatusCode::BAD_REQUEST, "invalid_request"),
            Self::Store(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl IntoResponse for HubError {
    fn into_response(self) -> Response {
        if let Self::Revoked(answer) = self {
            return (StatusCode::FORBIDDEN, Json(answer)).into_response();
        }
        let (status, code) = self.status_and_code();
        let message = match &self {
            // The database's own words stay in the hub's log, not in an answer.
            Self::Store(StoreError::Db(e)) => {
                tracing::error!("database: {e}");
                eprintln!("apc-hub: database error: {e}");
                "The hub could not read or write its database.".to_owned()
            }
            other => other.to_string(),
        };
        (
            status,
            Json(ErrorBody {
                error: code.to_owned(),
                message,
            }),
        )
            .into_response()
    }
}

pub type HubResult<T> = Result<T, HubError>;
