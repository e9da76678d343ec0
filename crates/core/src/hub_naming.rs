//! The hub's naming rules that the page app meets (APC 0.3.0 "Identity is the domain", 0.1.0
//! "Hub"): an unverified app's id derived from its host and port, and `<app>__<tool>`, the name a
//! hub relays an app's tool under.

use url::Host;

use crate::host::parse_host_port;

/// The longest app id (the `app` argument of `call_app_tool` and `list_app_tools`).
pub const APP_ID_MAX_CHARS: usize = 40;
/// The longest relayed tool name.
pub const TOOL_NAME_MAX_CHARS: usize = 64;
/// Between an app id and its tool in a relayed tool name.
pub const TOOL_SEPARATOR: &str = "__";

/// Why a host gives no app id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppIdError {
    #[error("not a host")]
    InvalidHost,
    /// An IP address, or a single-label host (`localhost`): an unverified app needs a domain name.
    #[error("an unverified app needs a domain name, not an IP address or a single label")]
    NotADomain,
    #[error("the host is too long for an app id ({APP_ID_MAX_CHARS} characters)")]
    TooLong,
}

impl AppIdError {
    /// The `/apc/pair` error: `app_host_too_long`, or `https_required` (no domain name).
    pub fn code(&self) -> &'static str {
        match self {
            Self::TooLong => "app_host_too_long",
            Self::InvalidHost | Self::NotADomain => "https_required",
        }
    }
}

/// An unverified app's id from its `host[:port]`: the host in punycode and lower case, then the
/// port, each run of characters outside `[a-z0-9]` one `_`, with none at either end
/// (`evil.example` → `evil_example`, `xn--bcher-kva.example:8443` → `xn_bcher_kva_example_8443`).
/// It always holds a `_` and never `__`, so it never equals a verified app's id or `page`.
/// Pass the URL's `host` as browsers give it (a default port left out): `evil.example:443` would
/// keep its port. A trailing dot adds nothing (`evil.example.` is `evil_example`): a hub tells such
/// origins apart by `app_id_taken`.
pub fn app_id_for_host(host: &str) -> Result<String, AppIdError> {
    let hp = parse_host_port(host).ok_or(AppIdError::InvalidHost)?;
    let Host::Domain(domain) = hp.host else {
        return Err(AppIdError::NotADomain);
    };
    let full = match hp.port {
        Some(port) => format!("{domain}:{port}"),
        None => domain,
    };
    let mut id = String::with_capacity(full.len());
    for c in full.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('_') {
            id.push('_');
        }
    }
    let id = id.trim_end_matches('_');
    if !id.contains('_') {
        return Err(AppIdError::NotADomain);
    }
    if id.len() > APP_ID_MAX_CHARS {
        return Err(AppIdError::TooLong);
    }
    Ok(id.to_owned())
}

/// Why a relayed tool name cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolNameError {
    #[error("the app id or the tool name is empty, or the app id holds `__`")]
    Invalid,
    #[error("`<app>__<tool>` is over {TOOL_NAME_MAX_CHARS} characters")]
    TooLong,
}

/// `<app>__<tool>`, the name a hub relays an app's tool under, at most 64 characters.
pub fn app_tool_name(app: &str, tool: &str) -> Result<String, ToolNameError> {
    if app.is_empty() || tool.is_empty() || app.contains(TOOL_SEPARATOR) {
        return Err(ToolNameError::Invalid);
    }
    let name = format!("{app}{TOOL_SEPARATOR}{tool}");
    if name.chars().count() > TOOL_NAME_MAX_CHARS {
        return Err(ToolNameError::TooLong);
    }
    Ok(name)
}

/// Splits a relayed tool name at its first `__` (an app id never holds one).
pub fn split_app_tool_name(name: &str) -> Option<(&str, &str)> {
    name.split_once(TOOL_SEPARATOR)
        .filter(|(app, tool)| !app.is_empty() && !tool.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0.3.0: `evil.example` gives `evil_example` and `evil_example__get_figure`.
    #[test]
    fn changelog_example() {
        let id = app_id_for_host("evil.example").unwrap();
        assert_eq!(id, "evil_example");
        assert_eq!(
            app_tool_name(&id, "get_figure").unwrap(),
            "evil_example__get_figure"
        );
        assert_eq!(
            split_app_tool_name("evil_example__get_figure"),
            Some(("evil_example", "get_figure"))
        );
    }

    /// 0.3.0: lower case, punycode, port kept, one `_` per run, never `__`.
    #[test]
    fn runs_and_punycode() {
        assert_eq!(
            app_id_for_host("Evil.Example:8443").unwrap(),
            "evil_example_8443"
        );
        assert_eq!(
            app_id_for_host("bücher.example").unwrap(),
            "xn_bcher_kva_example"
        );
        assert_eq!(app_id_for_host("a-.-b.example").unwrap(), "a_b_example");
        assert_eq!(app_id_for_host("evil.example.").unwrap(), "evil_example");
        for host in ["a--b.example", "x_.y.example", "a.b.c.d.example"] {
            let id = app_id_for_host(host).unwrap();
            assert!(id.contains('_') && !id.contains("__"), "{id}");
        }
    }

    /// 0.3.0: no IP address, no single-label or `localhost` host.
    #[test]
    fn needs_a_domain() {
        assert_eq!(app_id_for_host("localhost"), Err(AppIdError::NotADomain));
        assert_eq!(app_id_for_host("10.0.0.1"), Err(AppIdError::NotADomain));
        assert_eq!(app_id_for_host("[::1]:80"), Err(AppIdError::NotADomain));
        assert_eq!(app_id_for_host(""), Err(AppIdError::InvalidHost));
        assert_eq!(app_id_for_host("a/b.example"), Err(AppIdError::InvalidHost));
    }

    /// 0.3.0: a host too long for an id (40 characters) answers `app_host_too_long`.
    #[test]
    fn forty_chars() {
        let host40 = format!("{}.example", "a".repeat(32)); // 32 + 1 + 7 = 40
        assert_eq!(app_id_for_host(&host40).unwrap().len(), 40);
        let host41 = format!("{}.example", "a".repeat(33));
        let err = app_id_for_host(&host41).unwrap_err();
        assert_eq!(err.code(), "app_host_too_long");
    }

    /// 0.1.0: relayed names are at most 64 characters.
    #[test]
    fn tool_name_cap() {
        let app = "a".repeat(40);
        assert!(app_tool_name(&app, &"t".repeat(22)).is_ok());
        assert_eq!(
            app_tool_name(&app, &"t".repeat(23)),
            Err(ToolNameError::TooLong)
        );
        assert_eq!(app_tool_name("a__b", "t"), Err(ToolNameError::Invalid));
    }
}
