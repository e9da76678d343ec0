//! Browser events other than messages, forwarded by `extension/background.js` as
//! `(name, [listener arguments])`: `runtime.onInstalled` now; context menus, commands, storage
//! changes and alarms as they arrive.
//!
//! To add an event: register it in the loader (`forward(api.x.onY, "x.onY")`), add a variant to
//! [`Event`] and an arm in [`handle`].

use serde_json::{json, Value};

/// The events this build handles.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// `runtime.onInstalled(details)`: `details.reason` is `install`, `update`, ...
    Installed { reason: Option<String> },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error("unknown event {0:?}")]
    UnknownEvent(String),
    #[error("the event's arguments could not be read: {0}")]
    Unreadable(String),
}

impl EventError {
    pub fn code(&self) -> &'static str {
        match self {
            EventError::UnknownEvent(_) => "unknown_event",
            EventError::Unreadable(_) => "unreadable_event",
        }
    }
}

/// Name and arguments to an [`Event`].
pub fn parse(name: &str, args: &[Value]) -> Result<Event, EventError> {
    match name {
        "runtime.onInstalled" => Ok(Event::Installed {
            reason: args
                .first()
                .and_then(|details| details.get("reason"))
                .and_then(Value::as_str)
                .map(str::to_owned),
        }),
        other => Err(EventError::UnknownEvent(other.to_owned())),
    }
}

/// Handle one event.
pub async fn handle(name: &str, args: Vec<Value>) -> Result<(), EventError> {
    match parse(name, &args)? {
        // Nothing to set up yet: storage defaults and migrations will go here.
        Event::Installed { .. } => Ok(()),
    }
}

pub fn to_wire(reply: Result<(), EventError>) -> Value {
    match reply {
        Ok(()) => json!({ "ok": true }),
        Err(e) => json!({ "ok": false, "error": e.code(), "message": e.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_reads_its_reason() {
        assert_eq!(
            parse("runtime.onInstalled", &[json!({ "reason": "install" })]),
            Ok(Event::Installed {
                reason: Some("install".into())
            })
        );
        assert_eq!(
            parse("runtime.onInstalled", &[]),
            Ok(Event::Installed { reason: None })
        );
    }

    #[test]
    fn an_unknown_event_is_a_clear_error() {
        let wire = to_wire(crate::block_on(handle("tabs.onExploded", vec![])));
        assert_eq!(wire["ok"], json!(false));
        assert_eq!(wire["error"], json!("unknown_event"));
    }
}
