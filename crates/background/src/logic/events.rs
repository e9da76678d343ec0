//! Browser events other than messages, forwarded by `extension/background.js` as
//! `(name, [listener arguments])`: install and start-up, context menu clicks, the keyboard command,
//! alarms and closed windows. Each is parsed into an [`Event`] and handed to its flow.
//!
//! To add an event: register it in the loader (`forward(api.x.onY, "x.onY")`), add a variant to
//! [`Event`] and an arm in [`handle`].

use serde_json::{json, Value};

use super::flows::{self, MenuFrame, PointBy};
use super::memory::Memory;
use super::ports::{Env, Tab};
use super::views::MENU_PREFIX;

/// The alarm that retries give backs (one-shot, set for the next due one).
pub const GIVE_BACK_ALARM: &str = "apc-give-back";
/// The alarm that asks the hubs, while a pin is unread, whether the agent read it.
pub const PIN_STATUS_ALARM: &str = "apc-pin-status";

/// The events this build handles.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// `runtime.onInstalled(details)`: `details.reason` is `install`, `update`, ...
    Installed { reason: Option<String> },
    /// `runtime.onStartup()`: the browser started with the extension in it.
    Startup,
    /// `contextMenus.onClicked(info, tab)` on one of the "Point ‹agent› at this" entries, in the
    /// frame `info.frameId` (`0`: the top) showing `info.frameUrl`.
    MenuPoint {
        pairing: String,
        tab: Option<Tab>,
        frame: Option<MenuFrame>,
    },
    /// `commands.onCommand(command, tab)`: the keyboard command that points the last agent used.
    CommandPoint { tab: Option<Tab> },
    /// `alarms.onAlarm(alarm)`: time to retry the give backs.
    GiveBackAlarm,
    /// `windows.onRemoved(windowId)`: a consent window closed unanswered says no.
    WindowClosed { window_id: i64 },
    /// `alarms.onAlarm(alarm)`: time to ask the hubs whether unread pins were read.
    PinStatusAlarm,
    /// A menu entry, command or alarm that is not ours: nothing to do.
    Ignored,
}

/// The keyboard command's name in the manifest.
pub const POINT_COMMAND: &str = "point-selection";

fn tab_of(value: Option<&Value>) -> Option<Tab> {
    let tab = value?;
    Some(Tab {
        id: tab.get("id")?.as_i64()?,
        url: text(tab.get("url")),
        title: text(tab.get("title")),
    })
}

fn text(value: Option<&Value>) -> String {
    value.and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// The frame a menu click was in: `info.frameId` (absent in a browser that gives none: the top).
fn menu_frame(info: Option<&Value>) -> Option<MenuFrame> {
    let info = info?;
    Some(MenuFrame {
        id: info.get("frameId")?.as_i64()?,
        url: info
            .get("frameUrl")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
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
        "runtime.onStartup" => Ok(Event::Startup),
        "contextMenus.onClicked" => {
            let item = args
                .first()
                .and_then(|info| info.get("menuItemId"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            Ok(match item.strip_prefix(MENU_PREFIX) {
                Some(pairing) => Event::MenuPoint {
                    pairing: pairing.to_owned(),
                    tab: tab_of(args.get(1)),
                    frame: menu_frame(args.first()),
                },
                None => Event::Ignored,
            })
        }
        "commands.onCommand" => Ok(match args.first().and_then(Value::as_str) {
            Some(POINT_COMMAND) => Event::CommandPoint {
                tab: tab_of(args.get(1)),
            },
            _ => Event::Ignored,
        }),
        "alarms.onAlarm" => Ok(
            match args
                .first()
                .and_then(|a| a.get("name"))
                .and_then(Value::as_str)
            {
                Some(GIVE_BACK_ALARM) => Event::GiveBackAlarm,
                Some(PIN_STATUS_ALARM) => Event::PinStatusAlarm,
                _ => Event::Ignored,
            },
        ),
        "windows.onRemoved" => Ok(match args.first().and_then(Value::as_i64) {
            Some(window_id) => Event::WindowClosed { window_id },
            None => Event::Ignored,
        }),
        other => Err(EventError::UnknownEvent(other.to_owned())),
    }
}

/// Handle one event.
pub async fn handle<E: Env>(
    env: &E,
    memory: &Memory,
    name: &str,
    args: Vec<Value>,
) -> Result<(), EventError> {
    // A flow's failure was already told where the person looks (the page's note, the badge); the
    // event itself is handled either way.
    match parse(name, &args)? {
        Event::Installed { .. } | Event::Startup => drop(flows::start(env).await),
        Event::MenuPoint {
            pairing,
            tab,
            frame,
        } => drop(flows::point_selection(env, PointBy::Menu(pairing), tab, frame).await),
        Event::CommandPoint { tab } => {
            drop(flows::point_selection(env, PointBy::Command, tab, None).await)
        }
        Event::WindowClosed { window_id } => {
            drop(flows::window_closed(env, memory, window_id).await)
        }
        Event::PinStatusAlarm => drop(flows::refresh_status(env).await),
        Event::GiveBackAlarm => {
            drop(flows::retry_give_backs(env, crate::logic::state::TryBy::Timer).await)
        }
        Event::Ignored => {}
    }
    Ok(())
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
    fn menus_commands_and_alarms_are_read() {
        let tab = json!({ "id": 4, "url": "https://example.org/" });
        assert_eq!(
            parse(
                "contextMenus.onClicked",
                &[json!({ "menuItemId": "point:p1" }), tab.clone()]
            ),
            Ok(Event::MenuPoint {
                pairing: "p1".into(),
                tab: Some(Tab {
                    id: 4,
                    url: "https://example.org/".into(),
                    title: String::new(),
                }),
                frame: None,
            })
        );
        // In a frame: the browser's frame id and URL come along; the tab's title too.
        let framed =
            json!({ "menuItemId": "point:p1", "frameId": 12, "frameUrl": "https://w.example/c" });
        let titled = json!({ "id": 4, "url": "https://example.org/", "title": "Story" });
        assert_eq!(
            parse("contextMenus.onClicked", &[framed, titled]),
            Ok(Event::MenuPoint {
                pairing: "p1".into(),
                tab: Some(Tab {
                    id: 4,
                    url: "https://example.org/".into(),
                    title: "Story".into(),
                }),
                frame: Some(MenuFrame {
                    id: 12,
                    url: Some("https://w.example/c".into())
                }),
            })
        );
        assert_eq!(
            parse(
                "contextMenus.onClicked",
                &[json!({ "menuItemId": "other" })]
            ),
            Ok(Event::Ignored)
        );
        assert_eq!(
            parse("commands.onCommand", &[json!(POINT_COMMAND)]),
            Ok(Event::CommandPoint { tab: None })
        );
        assert_eq!(
            parse("commands.onCommand", &[json!("_execute_action")]),
            Ok(Event::Ignored)
        );
        assert_eq!(
            parse("alarms.onAlarm", &[json!({ "name": GIVE_BACK_ALARM })]),
            Ok(Event::GiveBackAlarm)
        );
    }

    #[test]
    fn an_unknown_event_is_a_clear_error() {
        let world = crate::logic::tests::fakes::World::new();
        let wire = to_wire(world.run(handle(&world, &world.memory, "tabs.onExploded", vec![])));
        assert_eq!(wire["ok"], json!(false));
        assert_eq!(wire["error"], json!("unknown_event"));
    }
}
