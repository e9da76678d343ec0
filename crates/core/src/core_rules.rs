//! The core every APC app implements (APC 0.2.0 onwards): the two core tools and the keys a result
//! carries, the profiles and `opposite_path`, revoke from the app (`RevokedAnswer`, 0.2.0/0.7.0),
//! mobile (0.6.0) and `apc_link` (0.4.0).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The two tools every APC app exposes, on every grant.
pub const CORE_TOOLS: [&str; 2] = ["get_current_view", "wait_for_focus"];
/// The key an unread pin puts on every tool result: `{ focus, note }`.
pub const ATTENTION_KEY: &str = "attention";
/// The loop hint, on results while a page of the person's is open (never on an empty wait).
pub const THEN_KEY: &str = "then";

/// How an agent reaches an app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApcProfile {
    Direct,
    Dock,
}

impl ApcProfile {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Direct => "direct",
            Self::Dock => "dock",
        }
    }
}

/// The other path: Direct for Dock, Dock for Direct.
pub fn opposite_path(path: ApcProfile) -> ApcProfile {
    match path {
        ApcProfile::Direct => ApcProfile::Dock,
        ApcProfile::Dock => ApcProfile::Direct,
    }
}

/// `opposite_path` of a word: only `"direct"` gives `"dock"`; every other word gives `"direct"`.
pub fn opposite_path_word(path: &str) -> &'static str {
    if path == ApcProfile::Direct.as_str() {
        ApcProfile::Dock.as_str()
    } else {
        ApcProfile::Direct.as_str()
    }
}

/// The `error` of a `RevokedAnswer`.
pub const REVOKED_ERROR: &str = "revoked";
/// The HTTP status of every request to a revoked grant's MCP URL.
pub const REVOKED_HTTP_STATUS: u16 = 403;

/// What a revoked grant answers, from the revoke on: HTTP 403 with this body, or the same as the
/// tool error of a call that was running.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevokedAnswer {
    /// Always `REVOKED_ERROR`.
    pub error: String,
    /// The host of the app that revoked the grant.
    pub revoked_by: String,
    pub revoked_at: String,
    pub message: String,
}

/// The answer an app at `host` gives for a grant revoked at `revoked_at`.
pub fn revoked_answer(host: &str, revoked_at: &str) -> RevokedAnswer {
    RevokedAnswer {
        error: REVOKED_ERROR.into(),
        revoked_by: host.into(),
        revoked_at: revoked_at.into(),
        message: format!(
            "The person revoked this agent's access in the app at {host}. It does not come back: to reconnect, the person makes a new grant there."
        ),
    }
}

/// Whether a body (an HTTP answer, or a tool error's structured content) is a `RevokedAnswer`:
/// an object (arrays included, as the reference checks) with `error: "revoked"` and a string
/// `revoked_by`.
pub fn is_revoked_answer(body: &Value) -> bool {
    let field = |k: &str| match body {
        Value::Object(m) => m.get(k),
        _ => None,
    };
    field("error").and_then(Value::as_str) == Some(REVOKED_ERROR)
        && field("revoked_by").is_some_and(Value::is_string)
}

/// The viewport where an app shows its agents in its own page (APC 0.6.0).
pub const APC_MOBILE_MEDIA: &str = "(pointer: coarse), (max-width: 640px)";

/// The reference viewport of the mobile rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Viewport {
    pub width: u32,
    pub height: u32,
}

/// 375 x 812.
pub const APC_MOBILE_VIEWPORT: Viewport = Viewport {
    width: 375,
    height: 812,
};

/// The tool an agent sends a link code back with.
pub const APC_LINK_TOOL: &str = "apc_link";
/// The key an offer puts on a result.
pub const APC_LINK_KEY: &str = "apc_link";
/// How long a link code lives, in seconds.
pub const APC_LINK_TTL_S: u64 = 120;
/// On the Dock path: the `_meta` key of the hub's `initialize` naming the agent's own MCP client.
pub const APC_AGENT_CLIENT_META: &str = "apc.tineira.com/agent_client";
/// The `error` of a refused link code.
pub const LINK_REFUSED_ERROR: &str = "link_refused";

/// An offer to link two connections of one agent, on a result under `APC_LINK_KEY`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApcLinkOffer {
    pub code: String,
    /// Seconds left: `APC_LINK_TTL_S` when offered.
    pub expires_in: u64,
    pub note: String,
}

/// `apc_link` succeeded (`linked` is always true).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApcLinkDone {
    pub linked: bool,
    pub note: String,
}

/// Why a link code was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApcLinkRefusal {
    UnknownCode,
    Expired,
    Used,
    SameConnection,
    SamePath,
    NotOffered,
    AlreadyLinked,
}

/// The tool error of a refused `apc_link` (`error` is always `LINK_REFUSED_ERROR`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApcLinkRefused {
    pub error: String,
    pub reason: ApcLinkRefusal,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// 0.2.0 "Revoke from the app": `revokedAnswer` builds it, `isRevokedAnswer` recognises it.
    #[test]
    fn revoked_answer_round_trip() {
        let a = revoked_answer("pulse.example", "2026-11-04T00:00:00Z");
        assert_eq!(a.error, "revoked");
        assert!(a.message.contains("pulse.example"));
        assert!(is_revoked_answer(&serde_json::to_value(&a).unwrap()));
        assert!(!is_revoked_answer(&json!({"error": "revoked"})));
        assert!(!is_revoked_answer(
            &json!({"error": "revoked", "revoked_by": 1})
        ));
        assert!(!is_revoked_answer(&json!("revoked")));
    }

    /// 0.4.0 `oppositePath`.
    #[test]
    fn opposite() {
        assert_eq!(opposite_path(ApcProfile::Direct), ApcProfile::Dock);
        assert_eq!(opposite_path(ApcProfile::Dock), ApcProfile::Direct);
        assert_eq!(opposite_path_word("hub"), "direct");
    }

    /// 0.4.0: refusal reasons on the wire.
    #[test]
    fn link_refused_wire() {
        let r = ApcLinkRefused {
            error: LINK_REFUSED_ERROR.into(),
            reason: ApcLinkRefusal::SameConnection,
            message: "m".into(),
        };
        assert_eq!(
            serde_json::to_value(r).unwrap(),
            json!({"error": "link_refused", "reason": "same_connection", "message": "m"})
        );
    }
}
