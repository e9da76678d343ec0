//! Where each drop's page text goes. A drop comes in two messages from the content script: first
//! what lies around the point (the reading made of it is pinned at once, without `page_text`), then
//! the whole page's observation, whose page text goes to that same reading. This keeps, while the
//! background lives, each drop's place (by its tab and the drop id its content script chose) until
//! its second message comes: the drop still being pinned (a text that arrives meanwhile is held
//! here until the pin is made), the pin made (its pairing, reading id and pointed part), or the
//! person's consent being asked (the text joins the reading the consent will pin).
//!
//! A second message matches only the tab, frame and drop id of a first one, once. Nothing here is a
//! source of truth: a background that stops forgets it, and the hub then tells the agent the page
//! text did not come (`page__get_reading`'s `page_text_status`). Plain Rust, like `app_checks`, and
//! part of the logic's [`Memory`](super::memory::Memory).

use std::cell::RefCell;

use apc_core::page_link::{PageReading, PAGE_TEXT_DUE_MS};

/// At most this many drops wait for their page text; the oldest goes first.
pub const MAX_DROPS: usize = 16;
/// A drop waits for its page text at most this long (the hub stops expecting it then too).
pub const KEEP_MS: u64 = PAGE_TEXT_DUE_MS;

/// Where a drop's page text goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Destination {
    /// The reading pinned for a pairing: its text goes to the hub for that reading id.
    Pin {
        pairing_id: String,
        reading_id: String,
        pointed: Box<PageReading>,
    },
    /// A consent window is asking: the text joins the reading the consent keeps.
    Consent { consent_id: String },
}

#[derive(Debug)]
enum Waiting {
    /// The drop's first message is being handled; a text that came already is held.
    Drop {
        early: Option<String>,
    },
    Ready(Destination),
}

#[derive(Debug)]
struct Entry {
    tab_id: i64,
    /// The frame of the tab the drop was in (`0`: the top).
    frame_id: i64,
    drop_id: String,
    at_ms: u64,
    waiting: Waiting,
}

/// What became of a drop's second message.
#[derive(Debug, PartialEq)]
pub enum Arrival {
    /// No drop of that tab, frame and id waits (never, over, or another tab's or frame's).
    Unknown,
    /// Its drop is still being pinned: the text is held and goes once the pin is made.
    Held,
    /// Send it there (the drop is done waiting).
    Go(Destination),
}

#[derive(Debug, Default)]
pub struct PageTexts {
    entries: RefCell<Vec<Entry>>,
}

impl PageTexts {
    fn prune(entries: &mut Vec<Entry>, now_ms: u64) {
        entries.retain(|e| now_ms >= e.at_ms && now_ms - e.at_ms < KEEP_MS);
    }

    fn position(entries: &[Entry], tab_id: i64, frame_id: i64, drop_id: &str) -> Option<usize> {
        entries
            .iter()
            .position(|e| e.tab_id == tab_id && e.frame_id == frame_id && e.drop_id == drop_id)
    }

    /// A drop's first message arrived: its page text is expected.
    pub fn expect(&self, tab_id: i64, frame_id: i64, drop_id: &str, now_ms: u64) {
        let mut entries = self.entries.borrow_mut();
        Self::prune(&mut entries, now_ms);
        if let Some(at) = Self::position(&entries, tab_id, frame_id, drop_id) {
            entries.remove(at);
        }
        if entries.len() >= MAX_DROPS {
            entries.remove(0);
        }
        entries.push(Entry {
            tab_id,
            frame_id,
            drop_id: drop_id.to_owned(),
            at_ms: now_ms,
            waiting: Waiting::Drop { early: None },
        });
    }

    /// The drop's first message is done: its text goes to `to`. Gives the text if it came
    /// meanwhile (the drop is then done waiting); `None` when it has yet to come or the drop was
    /// forgotten.
    pub fn ready(
        &self,
        tab_id: i64,
        frame_id: i64,
        drop_id: &str,
        to: Destination,
    ) -> Option<String> {
        let mut entries = self.entries.borrow_mut();
        let at = Self::position(&entries, tab_id, frame_id, drop_id)?;
        let entry = entries.get_mut(at)?;
        match &mut entry.waiting {
            Waiting::Drop { early } if early.is_some() => {
                let text = early.take();
                entries.remove(at);
                text
            }
            waiting => {
                *waiting = Waiting::Ready(to);
                None
            }
        }
    }

    /// A drop's second message: where it goes, held until its pin is made, or unknown.
    pub fn arrived(
        &self,
        tab_id: i64,
        frame_id: i64,
        drop_id: &str,
        observation: &str,
        now_ms: u64,
    ) -> Arrival {
        let mut entries = self.entries.borrow_mut();
        Self::prune(&mut entries, now_ms);
        let Some(at) = Self::position(&entries, tab_id, frame_id, drop_id) else {
            return Arrival::Unknown;
        };
        match &mut entries[at].waiting {
            Waiting::Drop { early: Some(_) } => Arrival::Unknown, // a second text for one drop
            Waiting::Drop { early } => {
                *early = Some(observation.to_owned());
                Arrival::Held
            }
            Waiting::Ready(_) => match entries.remove(at).waiting {
                Waiting::Ready(to) => Arrival::Go(to),
                Waiting::Drop { .. } => Arrival::Unknown,
            },
        }
    }

    /// The drop pinned nothing (refused, answered by the site, failed): its text goes nowhere.
    pub fn forget(&self, tab_id: i64, frame_id: i64, drop_id: &str) {
        let mut entries = self.entries.borrow_mut();
        if let Some(at) = Self::position(&entries, tab_id, frame_id, drop_id) {
            entries.remove(at);
        }
    }

    /// Whether a drop still waits for its text (for the consent: did it come before Allow?).
    pub fn waits(&self, tab_id: i64, frame_id: i64, drop_id: &str) -> bool {
        Self::position(&self.entries.borrow(), tab_id, frame_id, drop_id).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin() -> Destination {
        Destination::Consent {
            consent_id: "c1".into(),
        }
    }

    #[test]
    fn a_text_goes_once_to_its_own_tab_frame_and_drop_and_waits_for_the_pin() {
        let texts = PageTexts::default();
        texts.expect(1, 0, "d1", 0);
        // Early: held until the pin is made, then given back to send.
        assert_eq!(texts.arrived(1, 0, "d1", "obs", 5), Arrival::Held);
        assert_eq!(texts.arrived(1, 0, "d1", "again", 6), Arrival::Unknown);
        assert_eq!(texts.ready(1, 0, "d1", pin()), Some("obs".to_owned()));
        assert!(!texts.waits(1, 0, "d1"));
        // After the pin: goes at once, once; another tab or drop id finds nothing.
        texts.expect(1, 0, "d2", 10);
        assert_eq!(texts.ready(1, 0, "d2", pin()), None);
        assert_eq!(texts.arrived(2, 0, "d2", "x", 11), Arrival::Unknown);
        // Another frame of the same tab, naming the same drop: nothing either.
        assert_eq!(texts.arrived(1, 3, "d2", "x", 11), Arrival::Unknown);
        assert_eq!(texts.arrived(1, 0, "d3", "x", 11), Arrival::Unknown);
        assert_eq!(texts.arrived(1, 0, "d2", "x", 12), Arrival::Go(pin()));
        assert_eq!(texts.arrived(1, 0, "d2", "x", 13), Arrival::Unknown);
    }

    #[test]
    fn a_forgotten_expired_or_crowded_out_drop_takes_no_text() {
        let texts = PageTexts::default();
        texts.expect(1, 0, "gone", 0);
        texts.forget(1, 0, "gone");
        assert_eq!(texts.arrived(1, 0, "gone", "x", 1), Arrival::Unknown);
        texts.expect(1, 0, "old", 0);
        texts.ready(1, 0, "old", pin());
        assert_eq!(texts.arrived(1, 0, "old", "x", KEEP_MS), Arrival::Unknown);
        for i in 0..=MAX_DROPS {
            texts.expect(1, 0, &format!("d{i}"), 100);
            texts.ready(1, 0, &format!("d{i}"), pin());
        }
        assert_eq!(texts.arrived(1, 0, "d0", "x", 101), Arrival::Unknown);
        assert_eq!(texts.arrived(1, 0, "d1", "x", 101), Arrival::Go(pin()));
    }
}
