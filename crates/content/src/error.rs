//! [`ContentError`]: why an observation makes no reading, and the word the background's wire
//! uses for each reason. Its own file so that every module can name it without naming the crate's
//! root, which names them all.

use apc_core::reading_rules::ReadingError;

/// Why an observation makes no reading. `code()` gives the word the background's wire uses.
#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    #[error("malformed observation: {0}")]
    Malformed(String),
    #[error("observation over its cap: {0}")]
    TooLarge(&'static str),
    #[error("observation format version {0} is not supported")]
    UnsupportedVersion(u32),
    #[error("the page's address is not an http(s) URL")]
    BadUrl,
    #[error("nothing visible was pointed at")]
    NothingPointed,
    #[error("made_at is not a timestamp")]
    BadTimestamp,
    /// F2: the pointed form field holds a secret (a password, a one-time code, a PIN).
    #[error("that form field holds a secret (a password or a code): its value is not read")]
    SecretField,
    /// The text pointed at is inside a closed shadow root, which is not read.
    #[error("the text there is inside a closed shadow root, which is not read")]
    ClosedShadowRoot,
    /// The reading breaks the one rule set both sides apply (`PageReading::check`).
    #[error("the reading breaks a reading rule: {0}")]
    Rule(#[from] apc_core::reading_rules::ReadingError),
}

impl ContentError {
    pub fn code(&self) -> &'static str {
        match self {
            Self::Malformed(_) | Self::UnsupportedVersion(_) | Self::BadTimestamp => {
                "invalid_observation"
            }
            Self::TooLarge(_) => "too_large",
            Self::BadUrl => "unsupported_page",
            Self::NothingPointed => "nothing_pointed",
            Self::SecretField => "field_secret",
            Self::ClosedShadowRoot => "closed_shadow_root",
            Self::Rule(e) => match e {
                ReadingError::Url | ReadingError::UrlCredentials => "unsupported_page",
                ReadingError::NothingPointed => "nothing_pointed",
                ReadingError::MadeAt | ReadingError::Frame => "invalid_observation",
                ReadingError::UrlTooLong
                | ReadingError::TooManyTargets
                | ReadingError::TooLarge(_)
                | ReadingError::Lang => "too_large",
            },
        }
    }
}
