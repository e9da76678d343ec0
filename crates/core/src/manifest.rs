//! `apc.json` (APC 0.5.0): what an origin says about itself at `/.well-known/apc.json`, the checks a
//! reader makes on it (`parse_apc_manifest`), whether it covers an MCP URL (`declares_mcp_url`), the
//! URL-on-origin rule every URL in it follows, and the order of versions of the standard.
//! URLs are parsed with the `url` crate (WHATWG, like `new URL`); origins are serialized as
//! browsers do (`js_origin`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use url::Url;

use crate::js;
use crate::url_parse::new_url;

/// Where an origin serves its `apc.json`.
pub const APC_JSON_PATH: &str = "/.well-known/apc.json";
/// The most bytes a reader takes of an `apc.json`.
pub const APC_JSON_MAX_BYTES: usize = 16_384;
/// The MCP path an app has when it says nothing else, and the one a hub holds a verified app to
/// when it pairs without a copy of its file.
pub const APC_DEFAULT_MCP_PATH: &str = "/mcp/";
/// Every word of `profiles` a reader knows, in the order a parsed manifest lists them.
pub const APC_ROLES: [ApcRole; 3] = [ApcRole::Direct, ApcRole::Dock, ApcRole::Hub];
/// The most characters (UTF-16 units) of a manifest's name, after cleaning.
pub const NAME_MAX_CHARS: usize = 60;
/// The most characters of `mcp.path`.
pub const MCP_PATH_MAX_CHARS: usize = 200;
/// The most characters of a URL `url_on_origin` takes.
pub const URL_MAX_CHARS: usize = 2048;
/// The most words `profiles` may hold (known or not).
pub const PROFILES_MAX: usize = 8;

/// A word of `profiles`: an app's profile, or `hub` for a dock's hub.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApcRole {
    Direct,
    Dock,
    Hub,
}

impl ApcRole {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Direct => "direct",
            Self::Dock => "dock",
            Self::Hub => "hub",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpDecl {
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectDecl {
    pub connect: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DockDecl {
    pub pair: String,
    pub confirm: String,
}

/// A checked `apc.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApcManifest {
    pub name: String,
    pub standard: String,
    pub origin: String,
    pub profiles: Vec<ApcRole>,
    pub mcp: McpDecl,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct: Option<DirectDecl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dock: Option<DockDecl>,
}

impl ApcManifest {
    pub fn offers(&self, role: ApcRole) -> bool {
        self.profiles.contains(&role)
    }
}

/// Why a file read from an origin is not a manifest of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    #[error("apc.json is invalid: {0}")]
    Invalid(&'static str),
    #[error("apc.json names {declared}, it was read from {read_from}")]
    WrongOrigin { declared: String, read_from: String },
}

impl ManifestError {
    /// The wire code: `apc_json_invalid` or `apc_json_wrong_origin`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Invalid(_) => "apc_json_invalid",
            Self::WrongOrigin { .. } => "apc_json_wrong_origin",
        }
    }
}

/// Why a hub refuses a pairing over the app's `apc.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApcJsonRefusal {
    ApcJsonMissing,
    ApcJsonRedirected,
    ApcJsonUnreachable,
    ApcJsonInvalid,
    ApcJsonWrongOrigin,
    DockNotOffered,
    McpUrlNotDeclared,
}

impl ApcJsonRefusal {
    pub fn code(self) -> &'static str {
        match self {
            Self::ApcJsonMissing => "apc_json_missing",
            Self::ApcJsonRedirected => "apc_json_redirected",
            Self::ApcJsonUnreachable => "apc_json_unreachable",
            Self::ApcJsonInvalid => "apc_json_invalid",
            Self::ApcJsonWrongOrigin => "apc_json_wrong_origin",
            Self::DockNotOffered => "dock_not_offered",
            Self::McpUrlNotDeclared => "mcp_url_not_declared",
        }
    }
}

impl From<&ManifestError> for ApcJsonRefusal {
    fn from(e: &ManifestError) -> Self {
        match e {
            ManifestError::Invalid(_) => Self::ApcJsonInvalid,
            ManifestError::WrongOrigin { .. } => Self::ApcJsonWrongOrigin,
        }
    }
}

/// A URL's origin as a browser serializes it (`url.origin`): scheme, host and port for the
/// special network schemes, the inner URL's origin for a `blob:` of an http(s) URL, else "null".
pub fn js_origin(url: &Url) -> String {
    if url.scheme() == "blob" {
        return match new_url(url.path()) {
            Some(inner) if matches!(inner.scheme(), "http" | "https") => js_origin(&inner),
            _ => "null".into(),
        };
    }
    url.origin().ascii_serialization()
}

/// An absolute http(s) URL on `origin`, with no credentials, as its serialization (`href`);
/// `None` otherwise. A `blob:` URL of the origin is no page of it.
pub fn url_on_origin(value: &str, origin: &str) -> Option<String> {
    url_on(value, Some(origin))
}

/// `url_on_origin` for any JSON value: only a string can be a URL.
pub fn url_on_origin_json(value: Option<&Value>, origin: Option<&str>) -> Option<String> {
    url_on(value?.as_str()?, origin)
}

fn url_on(value: &str, origin: Option<&str>) -> Option<String> {
    if js::utf16_len(value) > URL_MAX_CHARS {
        return None;
    }
    let url = new_url(value)?;
    let ok = matches!(url.scheme(), "https" | "http")
        && Some(js_origin(&url).as_str()) == origin
        && url.username().is_empty()
        && url.password().unwrap_or("").is_empty();
    ok.then(|| url.as_str().to_owned())
}

/// Orders two versions of the standard: negative, zero or positive, like the reference, which
/// reads each dot-separated part as `Number(part)` (so `01` is 1, a missing part 0, and a part
/// that is no number NaN: the result is then NaN).
pub fn compare_standard(a: &str, b: &str) -> f64 {
    let pa: Vec<f64> = a.split('.').map(js::string_to_number).collect();
    let pb: Vec<f64> = b.split('.').map(js::string_to_number).collect();
    for i in 0..3 {
        let x = pa.get(i).copied().unwrap_or(0.0);
        let y = pb.get(i).copied().unwrap_or(0.0);
        // `!==`: NaN is never equal, not even to itself.
        if x != y || x.is_nan() {
            return x - y;
        }
    }
    0.0
}

/// `MAJOR.MINOR.PATCH` as `standard` must be: no leading zeros, at most 4, 5 and 6 digits.
pub fn is_standard_version(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    let num = |p: &str, max: usize| {
        !p.is_empty()
            && p.len() <= max
            && p.bytes().all(|b| b.is_ascii_digit())
            && (p == "0" || !p.starts_with('0'))
    };
    parts.len() == 3 && num(parts[0], 4) && num(parts[1], 5) && num(parts[2], 6)
}

fn is_path_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"._~!$&'()*+,;=:@-".contains(&b)
}

/// `mcp.path`: starts and ends with `/`, non-empty segments of URL path characters, no `.` or `..`.
pub fn is_mcp_path(path: &str) -> bool {
    if js::utf16_len(path) > MCP_PATH_MAX_CHARS {
        return false;
    }
    let Some(inner) = path.strip_prefix('/') else {
        return false;
    };
    if inner.is_empty() {
        return true;
    }
    let Some(inner) = inner.strip_suffix('/') else {
        return false;
    };
    inner
        .split('/')
        .all(|seg| !seg.is_empty() && seg != "." && seg != ".." && seg.bytes().all(is_path_char))
}

/// Checks an `apc.json` read from `origin`: the manifest, or why it is not one.
pub fn parse_apc_manifest(raw: &Value, origin: &str) -> Result<ApcManifest, ManifestError> {
    parse_apc_manifest_from(raw, Some(origin))
}

/// `parse_apc_manifest` where the origin read from may be unknown (`None` equals no origin).
pub fn parse_apc_manifest_from(
    raw: &Value,
    origin: Option<&str>,
) -> Result<ApcManifest, ManifestError> {
    use ManifestError::Invalid;
    let raw = raw.as_object().ok_or(Invalid("not a JSON object"))?;
    let name = match raw.get("name") {
        Some(Value::String(s)) => js::trim(&js::strip_cc_cf(s)).to_owned(),
        _ => String::new(),
    };
    if name.is_empty() || js::utf16_len(&name) > NAME_MAX_CHARS {
        return Err(Invalid("name is not a short string"));
    }
    let standard = raw
        .get("standard")
        .and_then(Value::as_str)
        .filter(|s| is_standard_version(s))
        .ok_or(Invalid("standard is not a version like 0.5.0"))?;
    let raw_origin = raw
        .get("origin")
        .and_then(Value::as_str)
        .ok_or(Invalid("origin is missing"))?;
    let declared = new_url(raw_origin)
        .map(|u| js_origin(&u))
        .ok_or(Invalid("origin is not an origin"))?;
    if declared != raw_origin {
        return Err(Invalid(
            "origin is not an origin (scheme, host and port, no path or trailing slash)",
        ));
    }
    if Some(declared.as_str()) != origin {
        return Err(ManifestError::WrongOrigin {
            declared,
            read_from: origin.unwrap_or("undefined").to_owned(),
        });
    }
    let words = match raw.get("profiles") {
        Some(Value::Array(words)) if words.len() <= PROFILES_MAX => words,
        _ => return Err(Invalid("profiles is not a short list")),
    };
    let profiles: Vec<ApcRole> = APC_ROLES
        .into_iter()
        .filter(|r| words.iter().any(|w| w.as_str() == Some(r.as_str())))
        .collect();
    if profiles.is_empty() {
        return Err(Invalid("profiles lists none of direct, dock, hub"));
    }
    if profiles.contains(&ApcRole::Hub) && profiles.len() > 1 {
        return Err(Invalid("a hub lists only hub"));
    }
    let path = js::as_plain_object(raw.get("mcp"))
        .and_then(|m| m.get("path"))
        .and_then(Value::as_str)
        .filter(|p| is_mcp_path(p))
        .ok_or(Invalid(
            "mcp.path is not a path that starts and ends with /",
        ))?;
    let mut manifest = ApcManifest {
        name,
        standard: standard.to_owned(),
        origin: declared,
        profiles,
        mcp: McpDecl {
            path: path.to_owned(),
        },
        direct: None,
        dock: None,
    };
    let on_origin = |v: Option<&Value>| url_on_origin_json(v, origin);
    if manifest.offers(ApcRole::Direct) {
        let direct = js::as_plain_object(raw.get("direct"));
        let connect = direct
            .and_then(|d| on_origin(d.get("connect")))
            .ok_or(Invalid("direct.connect is not a URL on its origin"))?;
        manifest.direct = Some(DirectDecl { connect });
    }
    if manifest.offers(ApcRole::Hub) {
        let dock = js::as_plain_object(raw.get("dock"));
        let field = |k: &str| dock.and_then(|d| on_origin(d.get(k)));
        match (field("pair"), field("confirm")) {
            (Some(pair), Some(confirm)) => manifest.dock = Some(DockDecl { pair, confirm }),
            _ => {
                return Err(Invalid(
                    "dock.pair and dock.confirm are not URLs on its origin",
                ))
            }
        }
    }
    Ok(manifest)
}

/// Whether an MCP URL lies under what the manifest declares (see `declares_mcp_url_on`).
pub fn declares_mcp_url(manifest: &ApcManifest, mcp_url: &str) -> bool {
    declares_mcp_url_on(&manifest.origin, &manifest.mcp.path, mcp_url)
}

/// Whether `mcp_url` is an http(s) URL on `origin`, with no credentials, strictly under
/// `mcp_path`, such that a server decoding it later cannot be walked out of `mcp_path`: no `%2f`,
/// `%5c`, `%2e` or `%25` (any case) in the rest of the parsed path nor in the path as sent
/// (the parser already removed some encoded dots), no backslash, no `.` or `..` segment.
pub fn declares_mcp_url_on(origin: &str, mcp_path: &str, mcp_url: &str) -> bool {
    let Some(url) = new_url(mcp_url) else {
        return false;
    };
    if url_on_origin(url.as_str(), origin).is_none() {
        return false;
    }
    let path = url.path();
    let Some(rest) = path.strip_prefix(mcp_path).filter(|r| !r.is_empty()) else {
        return false;
    };
    let sent = mcp_url.split(['?', '#']).next().unwrap_or("");
    !has_encoded_escape(rest)
        && !has_encoded_escape(sent)
        && !rest.contains('\\')
        && !rest.split('/').any(|s| s == "." || s == "..")
}

/// A hub's check of a pairing against the app's manifest (0.5.0 "Pairing"): the file must list
/// `"dock"` (`dock_not_offered`) and cover the MCP URL the app sent (`mcp_url_not_declared`).
pub fn check_pairing(manifest: &ApcManifest, mcp_url: &str) -> Result<(), ApcJsonRefusal> {
    if !manifest.offers(ApcRole::Dock) {
        return Err(ApcJsonRefusal::DockNotOffered);
    }
    if !declares_mcp_url(manifest, mcp_url) {
        return Err(ApcJsonRefusal::McpUrlNotDeclared);
    }
    Ok(())
}

/// A verified app paired with no copy of its file (it could not be reached): the operator's word
/// covers the profiles, never the path, so the MCP URL must lie under `APC_DEFAULT_MCP_PATH` and
/// pass every check of `declares_mcp_url_on`.
pub fn check_pairing_without_file(origin: &str, mcp_url: &str) -> Result<(), ApcJsonRefusal> {
    if declares_mcp_url_on(origin, APC_DEFAULT_MCP_PATH, mcp_url) {
        Ok(())
    } else {
        Err(ApcJsonRefusal::McpUrlNotDeclared)
    }
}

/// `%2f`, `%5c`, `%2e` or `%25`, in either case.
fn has_encoded_escape(s: &str) -> bool {
    s.as_bytes().windows(3).any(|w| {
        w[0] == b'%'
            && matches!(
                (w[1], w[2].to_ascii_lowercase()),
                (b'2', b'f') | (b'5', b'c') | (b'2', b'e') | (b'2', b'5')
            )
    })
}

/// The standard's words for a Direct-only app answering a dock agent's drop on its own page.
/// (The extension speaks in its own words: `notes::page_direct_only_note`.)
pub fn direct_only_note(name: &str) -> String {
    format!(
        "{name} connects agents directly, not through a dock. Connect your agent to {name} on its own URL, then drag its mark from the agent bar there."
    )
}

/// The standard's words for an app whose page could not read its own `apc.json` on a drop.
pub fn could_not_check_note(name: &str) -> String {
    format!(
        "{name} could not check how it connects agents just now, so your agent was not paired. Drop it again in a moment, or connect your agent to {name} directly on its own URL."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const O: &str = "https://signals.example";

    fn app(profiles: Value) -> Value {
        json!({"name": "Signals", "standard": "0.5.0", "origin": O, "profiles": profiles,
            "mcp": {"path": "/mcp/"}, "direct": {"connect": "https://signals.example/?connect"}})
    }

    /// 0.5.0 `parseApcManifest`: a valid app file, profiles in the standard's order.
    /// Issue 11 (differential run): url 2.5.8 did not pop a drive-letter-like segment of an
    /// http(s) path on `..`, so the first URL looked declared under `/mcp/` while browsers, node
    /// and servers resolve `/admin`; the project's patched url (vendor/README.md) resolves the path
    /// as the URL standard does, so a drive letter popped inside the path is an ordinary segment.
    #[test]
    fn a_drive_letter_segment_cannot_hide_a_walk_out_of_the_mcp_path() {
        let o = "https://app.example";
        assert!(!declares_mcp_url_on(
            o,
            "/mcp/",
            "https://app.example/mcp/j:/../../admin"
        ));
        assert!(!declares_mcp_url_on(
            o,
            "/mcp/",
            "https://app.example/mcp/x/J|/../../../admin/x"
        ));
        assert!(!declares_mcp_url_on(
            o,
            "/mcp/",
            "https://app.example/mcp/j:\\..\\..\\admin"
        ));
        assert!(declares_mcp_url_on(
            o,
            "/mcp/",
            "https://app.example/mcp/j:/g_1"
        ));
        assert!(declares_mcp_url_on(
            o,
            "/mcp/",
            "https://app.example/mcp/g_1"
        ));
        // Popped inside the path: `/mcp/x/g_1`, under `/mcp/` for every URL parser.
        assert!(declares_mcp_url_on(
            o,
            "/mcp/",
            "https://app.example/mcp/x/j:/../g_1"
        ));
        assert_eq!(
            url_on_origin("https://app.example/a/J|/..", o).as_deref(),
            Some("https://app.example/a/")
        );
    }

    #[test]
    fn parses_an_app() {
        let m = parse_apc_manifest(&app(json!(["dock", "direct", "link"])), O).unwrap();
        assert_eq!(m.profiles, vec![ApcRole::Direct, ApcRole::Dock]);
        assert_eq!(
            m.direct.unwrap().connect,
            "https://signals.example/?connect"
        );
    }

    /// 0.5.0: "A reader ignores profile words and keys it does not know", but needs one it knows.
    #[test]
    fn unknown_profile_words_ignored() {
        let m = parse_apc_manifest(&app(json!(["dock", "telepathy"])), O).unwrap();
        assert_eq!(m.profiles, vec![ApcRole::Dock]);
        assert_eq!(
            parse_apc_manifest(&app(json!(["telepathy"])), O)
                .unwrap_err()
                .code(),
            "apc_json_invalid"
        );
    }

    /// 0.5.0: `"hub"` alone for a hub; a hub listing an app profile is invalid.
    #[test]
    fn hub_lists_only_hub() {
        let mut hub = app(json!(["hub", "dock"]));
        hub["dock"] = json!({"pair": "https://signals.example/apc/pair",
            "confirm": "https://signals.example/apc/confirm"});
        assert!(parse_apc_manifest(&hub, O).is_err());
        hub["profiles"] = json!(["hub"]);
        let m = parse_apc_manifest(&hub, O).unwrap();
        assert_eq!(m.dock.unwrap().pair, "https://signals.example/apc/pair");
    }

    /// 0.5.0: a Direct app with no connect page is invalid; a connect page off its origin too.
    #[test]
    fn direct_needs_connect_on_origin() {
        let mut m = app(json!(["direct"]));
        m.as_object_mut().unwrap().remove("direct");
        assert!(parse_apc_manifest(&m, O).is_err());
        m["direct"] = json!({"connect": "blob:https://signals.example/x"});
        assert!(parse_apc_manifest(&m, O).is_err());
        m["direct"] = json!({"connect": "https://user:pw@signals.example/"});
        assert!(parse_apc_manifest(&m, O).is_err());
    }

    /// 0.5.0: `origin` exactly the origin; another origin is `apc_json_wrong_origin`.
    #[test]
    fn origin_rules() {
        let mut m = app(json!(["dock"]));
        m["origin"] = json!("https://signals.example/");
        assert_eq!(
            parse_apc_manifest(&m, O).unwrap_err().code(),
            "apc_json_invalid"
        );
        m["origin"] = json!("https://other.example");
        assert_eq!(
            parse_apc_manifest(&m, O).unwrap_err().code(),
            "apc_json_wrong_origin"
        );
        // An IDN origin is valid only in its punycode (ASCII) form.
        let idn = "https://xn--bcher-kva.example";
        m["origin"] = json!(idn);
        assert!(parse_apc_manifest(&m, idn).is_ok());
        m["origin"] = json!("https://bücher.example");
        assert_eq!(
            parse_apc_manifest(&m, idn).unwrap_err().code(),
            "apc_json_invalid"
        );
    }

    /// 0.5.0 `urlOnOrigin`: http(s) on the origin with no credentials; `blob:` is not a page of it.
    #[test]
    fn url_on_origin_rules() {
        assert_eq!(
            url_on_origin("https://signals.example", O).as_deref(),
            Some("https://signals.example/")
        );
        assert_eq!(url_on_origin("blob:https://signals.example/1", O), None);
        assert_eq!(url_on_origin("https://:p@signals.example/", O), None);
        assert_eq!(
            url_on_origin("https://:@signals.example/", O).as_deref(),
            Some("https://signals.example/")
        );
        assert_eq!(url_on_origin("/relative", O), None);
        let blob = Url::parse("blob:https://signals.example/1").unwrap();
        assert_eq!(js_origin(&blob), O);
        assert_eq!(
            js_origin(&Url::parse("blob:ftp://a.example/").unwrap()),
            "null"
        );
    }

    /// 0.5.0 `declaresMcpUrl`: encoded `/ \ . %` are refused in any case, as sent or after parsing.
    #[test]
    fn mcp_url_encoded_escapes() {
        let ok = |u: &str| declares_mcp_url_on(O, "/mcp/", u);
        assert!(ok("https://signals.example/mcp/g_123"));
        assert!(!ok("https://signals.example/mcp/"));
        assert!(!ok("https://signals.example/mcpx/a"));
        for bad in ["%2f", "%2F", "%5c", "%5C", "%2e", "%2E", "%25", "%252e"] {
            assert!(
                !ok(&format!("https://signals.example/mcp/a{bad}b")),
                "{bad}"
            );
        }
        // The parser resolves `%2e%2e` to `..` and removes it; the URL as sent still shows it.
        assert!(!ok("https://signals.example/mcp/x/%2e%2e/mcp/y"));
        // In the query it does not matter.
        assert!(ok("https://signals.example/mcp/a?x=%2f"));
        assert!(!ok("http://signals.example/mcp/a"));
    }

    /// 0.5.0 `compareStandard` reads parts as `Number`: `01.2.3` equals `1.2.3`, though `standard`
    /// itself must not have leading zeros.
    #[test]
    fn versions() {
        assert_eq!(compare_standard("01.2.3", "1.2.3"), 0.0);
        assert!(!is_standard_version("01.2.3"));
        assert!(compare_standard("0.5.0", "0.7.0") < 0.0);
        assert_eq!(compare_standard("0.10.0", "0.9.9"), 1.0);
        assert_eq!(compare_standard("1", "1.0.0"), 0.0);
        assert!(compare_standard("x.1.0", "x.1.0").is_nan());
        assert_eq!(compare_standard("1..2", "1.0.2"), 0.0);
    }
    /// 0.5.0 "Pairing": no `"dock"` is `dock_not_offered`, an uncovered URL `mcp_url_not_declared`,
    /// and without a file the path is held to `/mcp/`.
    #[test]
    fn pairing_checks() {
        let direct_only = parse_apc_manifest(&app(json!(["direct"])), O).unwrap();
        assert_eq!(
            check_pairing(&direct_only, "https://signals.example/mcp/g"),
            Err(ApcJsonRefusal::DockNotOffered)
        );
        let dock = parse_apc_manifest(&app(json!(["dock"])), O).unwrap();
        assert_eq!(
            check_pairing(&dock, "https://signals.example/mcp/g"),
            Ok(())
        );
        assert_eq!(
            check_pairing(&dock, "https://signals.example/other/g").map_err(|e| e.code()),
            Err("mcp_url_not_declared")
        );
        assert!(check_pairing_without_file(O, "https://signals.example/mcp/g").is_ok());
        assert!(check_pairing_without_file(O, "https://signals.example/api/g").is_err());
        assert!(check_pairing_without_file(O, "https://signals.example/mcp/%2e%2e/g").is_err());
    }
}
