//! Wire types of the APC channels (the standard's `types.d.ts`), field names exactly as on the wire.
//! Only identifiers and keys travel in these: never page text, amounts or pixels.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// A key-only value: an id, a month, an enum word, or a short list of those.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum KeyValue {
    One(String),
    Many(Vec<String>),
}

/// Params of a target, in the order they were given (JSON object order is kept on the wire).
pub type FocusParams = IndexMap<String, KeyValue>;

/// What the person pointed at: a row, a part of a row, or a part of a computed figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FocusTarget {
    pub kind: String,
    /// The row id; `None` (JSON null) for a figure named by its params.
    pub id: Option<String>,
    pub part: Option<String>,
    pub params: Option<FocusParams>,
}

/// How a hub names the app a focus comes from (`AppRef`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppRef {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unverified: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_name: Option<String>,
}

/// What the agent receives: the target plus the tool call that reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FocusPayload {
    #[serde(flatten)]
    pub target: FocusTarget,
    pub app_url: String,
    pub pinned_at: String,
    pub next: String,
    pub next_args: serde_json::Map<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part_note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trimmed: Option<Trimmed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gone: Option<bool>,
    /// Added by a hub: which app the focus comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<AppRef>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trimmed {
    pub hidden_entities: u32,
}

/// The stored pin, one per grant (`FocusRow`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FocusRow {
    #[serde(flatten)]
    pub target: FocusTarget,
    pub grant_id: String,
    pub pinned_at: String,
    pub seen_at: Option<String>,
}

/// What an unread pin puts on every tool result under `ATTENTION_KEY`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attention {
    pub focus: FocusPayload,
    pub note: String,
}

/// The one selected row of a view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    pub kind: String,
    pub id: String,
}

/// The person's screen as identifiers, trimmed to the calling grant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ViewPayload {
    pub screen: String,
    pub params: FocusParams,
    pub selection: Option<Selection>,
    pub app_url: String,
    pub updated_at: String,
    pub age_seconds: f64,
    pub stale: bool,
    pub next: Option<String>,
}

/// Whether a tool call read or wrote (`PresenceEvent.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PresenceKind {
    Read,
    Write,
}

/// A row a tool call touched, named on the presence channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresenceTarget {
    pub kind: String,
    pub id: String,
}

/// One message on the presence channel, after each successful tool call. `v` is always 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresenceEvent {
    pub v: u8,
    pub grant_id: String,
    pub at: String,
    pub tool: String,
    pub kind: PresenceKind,
    /// At most `PRESENCE_MAX_TARGETS`.
    pub targets: Vec<PresenceTarget>,
    pub count: u64,
}

/// The most targets a `PresenceEvent` names.
pub const PRESENCE_MAX_TARGETS: usize = 20;

/// `get_current_view`'s result: the screen and, if the person pointed the agent, the focus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurrentViewResult {
    pub view: Option<ViewPayload>,
    pub focus: Option<FocusPayload>,
}

/// `wait_for_focus` came back with a pin (`timed_out` is always false).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WaitGotFocus {
    pub focus: FocusPayload,
    pub timed_out: bool,
}

/// `wait_for_focus` came back with no pin: `focus` is JSON null. It never carries `then`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitNoFocus {
    pub focus: (),
    pub timed_out: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_open: Option<bool>,
    pub note: String,
}

/// `wait_for_focus`'s result, either shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WaitForFocusResult {
    GotFocus(Box<WaitGotFocus>),
    NoFocus(WaitNoFocus),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// 0.2.0: a wait with no pin is `focus: null` with `timed_out`, and `page_open` only when known.
    #[test]
    fn wait_result_shapes() {
        let none: WaitForFocusResult =
            serde_json::from_value(json!({"focus": null, "timed_out": true, "note": "n"})).unwrap();
        assert!(matches!(
            none,
            WaitForFocusResult::NoFocus(WaitNoFocus {
                page_open: None,
                ..
            })
        ));
        assert_eq!(
            serde_json::to_value(&none).unwrap(),
            json!({"focus": null, "timed_out": true, "note": "n"})
        );
        let got = json!({"focus": {"kind": "customer", "id": "c1", "part": null, "params": null,
            "app_url": "https://a.example/", "pinned_at": "t", "next": "get_current_view",
            "next_args": {}}, "timed_out": false});
        let got: WaitForFocusResult = serde_json::from_value(got).unwrap();
        assert!(matches!(got, WaitForFocusResult::GotFocus(_)));
    }

    /// 0.1.0: `FocusRow` is the target plus `grant_id`, `pinned_at`, `seen_at`, flat on the wire.
    #[test]
    fn focus_row_is_flat() {
        let row = json!({"kind": "invoice", "id": null, "part": null, "params": {"month": "2026-03"},
            "grant_id": "g", "pinned_at": "t", "seen_at": null});
        let parsed: FocusRow = serde_json::from_value(row.clone()).unwrap();
        assert_eq!(serde_json::to_value(parsed).unwrap(), row);
    }
}
