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
