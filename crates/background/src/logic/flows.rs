//! The extension's flows, each from one event to its end: a drop, a consent answer, pointing at a
//! selection (context menu, keyboard command, popup), pairing by code, unpin and Undo, revoke and its
//! give back, the hubs' status, and the popup's view. Each is a plain async function over the ports
//! ([`Env`]) and returns a typed answer; the rules they apply come from `apc-core` (payload, origins,
//! `apc.json`, notes, the pairing code, hub answers), `apc-content` (the reading) and [`State`].

use apc_content::{build_pointed, build_reading, page_text_for, Observation, PageText};
use apc_core::drop_answer::{answer_drop, DropAnswer};
use apc_core::page_link::{How, HubPage, PageReading, PinState};
use apc_core::pairing_code::{normalize_pairing_code, PairingCodeError};
use apc_core::{display_origin, hub_address_origin, parse_drag_payload, web_origin, FocusPayload};
use serde::Serialize;

use super::hub_api::{self, HubCallError};
use super::page_texts::{Arrival, Destination};
use super::ports::{
    Clock, Collected, Env, GrantVault, PageUi, PendingConsent, PortError, Store, Tab,
};
use super::state::{HubState, PairedBy, PairingRecord, State, TryBy};
use super::time::iso;
use super::views::{ConsentView, Msg, Note, NoteKind, NoteText, PopupView, ALLOW_DELAY_MS};

#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    #[error("the browser failed: {0}")]
    Browser(#[from] PortError),
    #[error(transparent)]
    Hub(#[from] HubCallError),
    #[error("this drag is not an agent's mark from an APC hub: {0}")]
    BadPayload(String),
    #[error(transparent)]
    Content(#[from] apc_content::ContentError),
    #[error("select some text on the page first")]
    NoSelection,
    #[error("the extension cannot read this page; reload it and try again")]
    PageUnreachable,
    #[error("pointing works on web pages (http and https) only")]
    NotAWebPage,
    #[error("no agent is paired yet: drag an agent's mark from your hub's dock page onto the page first")]
    NoPairing,
    #[error("choose the agent first: use Point in the toolbar popup, or its entry in the page's context menu")]
    NoCommandDefault,
    #[error("that pairing is gone")]
    UnknownPairing,
    #[error("that request to pair is gone (answered, or the browser was restarted)")]
    UnknownConsent,
    #[error("Allow came before the window had been shown for a moment; nothing was paired")]
    AllowTooSoon,
    #[error("{0} is not the address of a hub (like http://127.0.0.1:7410)")]
    HubInvalid(String),
    #[error(transparent)]
    Code(#[from] PairingCodeError),
    #[error(transparent)]
    Duplicate(#[from] super::state::DuplicateId),
    #[error("no drop of this page waits for its page text")]
    UnknownDrop,
}

impl FlowError {
    pub fn code(&self) -> &str {
        match self {
            Self::Browser(_) => "browser_error",
            Self::Hub(e) => e.code(),
            Self::BadPayload(_) => "invalid_payload",
            Self::Content(e) => e.code(),
            Self::NoSelection => "no_selection",
            Self::PageUnreachable => "page_unreachable",
            Self::NotAWebPage => "not_a_web_page",
            Self::NoPairing => "no_pairing",
            Self::NoCommandDefault => "no_command_default",
            Self::UnknownPairing => "unknown_pairing",
            Self::UnknownConsent => "consent_unknown",
            Self::AllowTooSoon => "allow_too_soon",
            Self::HubInvalid(_) => "hub_invalid",
            Self::Code(_) => "code_invalid",
            Self::Duplicate(_) => "hub_bad_answer",
            Self::UnknownDrop => "drop_unknown",
        }
    }

    /// The error in the extension's own words, as a message key (localized by the adapters); `None`
    /// when the words are a hub's or a parser's, shown as they are.
    pub fn msg(&self) -> Option<Msg> {
        let m = match self {
            Self::NoSelection => Msg::new("errNoSelection", []),
            Self::PageUnreachable => Msg::new("errPageUnreachable", []),
            Self::NotAWebPage => Msg::new("errNotAWebPage", []),
            Self::NoPairing => Msg::new("errNoPairing", []),
            Self::NoCommandDefault => Msg::new("errNoCommandDefault", []),
            Self::UnknownPairing => Msg::new("errUnknownPairing", []),
            Self::UnknownConsent => Msg::new("errUnknownConsent", []),
            Self::AllowTooSoon => Msg::new("errAllowTooSoon", []),
            Self::HubInvalid(address) => Msg::new("errHubInvalid", [address.clone()]),
            Self::Code(PairingCodeError::Empty) => Msg::new("errCodeEmpty", []),
            Self::Code(PairingCodeError::Malformed) => Msg::new("errCodeMalformed", []),
            Self::BadPayload(why) => Msg::new("errBadPayload", [why.clone()]),
            Self::Hub(HubCallError::Unreachable(why)) => {
                Msg::new("errHubUnreachable", [why.clone()])
            }
            Self::Hub(HubCallError::Revoked { by }) => Msg::new("errHubRevoked", [by.clone()]),
            Self::Hub(HubCallError::GrantUnknown) => Msg::new("errGrantUnknown", []),
            _ => return None,
        };
        Some(m)
    }

    /// The error as a note in a page.
    pub fn note(&self) -> Note {
        match self.msg() {
            Some(msg) => Note {
                kind: NoteKind::Error,
                text: NoteText::Msg(msg),
                link: None,
                undo_token: None,
            },
            None => Note::error(self.to_string()),
        }
    }

    /// Which field of the popup's pair-by-code form an error is about.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::HubInvalid(_) => Some("hub"),
            Self::Code(_) => Some("code"),
            Self::Hub(HubCallError::Refused { code, .. }) if code.starts_with("ticket_") => {
                Some("code")
            }
            Self::Hub(_) | Self::Duplicate(_) => Some("hub"),
            _ => None,
        }
    }
}

pub type Flow<T> = Result<T, FlowError>;

/// The answer to a drop.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DropOutcome {
    /// The page's origin is an app that answers for itself: the extension's own note, nothing paired.
    Answered {
        answered: bool,
        note: String,
        link: Option<String>,
    },
    /// An existing pairing: pinned with the drag's ticket.
    Pinned { pinned: Box<FocusPayload> },
    /// A new pairing: the consent window is open.
    Consent { consent: String },
}

/// The answer to the consent window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsentOutcome {
    pub paired: bool,
    pub pinned: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_name: Option<String>,
}

/// The answer to a pin (by a drop or a selection): the focus the hub made of it. A pin's other
/// names: core's `PinState` (on the wire and as kept), `views::PinView` (as the popup shows it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pinned {
    pub pinned: Box<FocusPayload>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsentOpened {
    pub consent: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unpinned {
    pub unpinned: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GiveBackOutcome {
    Done,
    Pending,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Revoked {
    pub give_back: GiveBackOutcome,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsentAsked {
    pub consent: ConsentView,
}

/// Who chose the pairing to point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointBy {
    /// The popup's Point on a pairing: the person chose it.
    Popup(String),
    /// The context menu entry naming a pairing: the person chose it.
    Menu(String),
    /// The keyboard command: the pairing the person last chose.
    Command,
}

/// Undo in a page names the pin it undoes: `<pairing id>:<reading id>`. Both are link ids (core's
/// `is_link_id`: never a `:`), so the token splits one way only.
pub fn undo_token(pairing_id: &str, reading_id: &str) -> String {
    format!("{pairing_id}:{reading_id}")
}

pub fn parse_undo_token(token: &str) -> Option<(&str, &str)> {
    let (p, r) = token.split_once(':')?;
    let ok = apc_core::page_link::is_link_id(p) && apc_core::page_link::is_link_id(r);
    ok.then_some((p, r))
}

fn now<E: Env>(env: &E) -> String {
    iso(env.clock().now_ms())
}

async fn show_toolbar<E: Env>(env: &E, state: &State) {
    env.ui().show_toolbar(&state.toolbar()).await;
}

/// Reads an observation (JSON text from the content script) into a reading, and checks it is the
/// page the browser says sent it, pointed the way this flow expects.
fn reading_from<E: Env>(
    env: &E,
    observation: &str,
    page_url: &str,
    how: &[How],
) -> Flow<PageReading> {
    reading_or_pointed_from(env, observation, page_url, how, false)
}

/// [`reading_from`], or with `pointed_only` the reading's pointed part (no page text) from the
/// first message of a drop.
fn reading_or_pointed_from<E: Env>(
    env: &E,
    observation: &str,
    page_url: &str,
    how: &[How],
    pointed_only: bool,
) -> Flow<PageReading> {
    let observation = Observation::from_json(observation)?;
    if !how.contains(&observation.how) {
        return Err(FlowError::PageUnreachable);
    }
    let reading = match pointed_only {
        true => build_pointed(&observation, &now(env))?,
        false => build_reading(&observation, &now(env))?,
    };
    // The page's own account of its address must be the page the browser says sent it.
    let origin = |url: &str| web_origin(url).map(|o| o.origin);
    if origin(&reading.url).is_none() || origin(&reading.url) != origin(page_url) {
        return Err(FlowError::PageUnreachable);
    }
    Ok(reading)
}

/// A trusted drop of an agent's mark on a page (the content script checked `isTrusted`; the
/// message came from the top frame of tab `tab_id`, showing `page_url`), its observation whole:
/// one message, one reading with its page text.
pub async fn drop<E: Env>(
    env: &E,
    tab_id: i64,
    page_url: &str,
    payload: &str,
    observation: &str,
) -> Flow<DropOutcome> {
    let outcome = drop_inner(env, tab_id, page_url, payload, observation, None).await;
    if let Err(e) = &outcome {
        env.ui().note(tab_id, &e.note()).await;
    }
    outcome
}

/// The first message of a drop in two (`drop_id` names it, chosen by its content script): the
/// observation is what lies around the point. The reading made of it is pinned at once without
/// `page_text` (the same checks and ticket as [`drop`]); the page text follows in
/// [`drop_text`], to the same reading.
pub async fn drop_first<E: Env>(
    env: &E,
    tab_id: i64,
    page_url: &str,
    payload: &str,
    observation: &str,
    drop_id: &str,
) -> Flow<DropOutcome> {
    if !apc_core::page_link::is_link_id(drop_id) {
        let e = FlowError::BadPayload("its drop id is not an id".into());
        env.ui().note(tab_id, &e.note()).await;
        return Err(e);
    }
    env.page_texts()
        .expect(tab_id, drop_id, env.clock().now_ms());
    let outcome = drop_inner(env, tab_id, page_url, payload, observation, Some(drop_id)).await;
    if !matches!(
        outcome,
        Ok(DropOutcome::Pinned { .. } | DropOutcome::Consent { .. })
    ) {
        // Nothing pinned nor asked: its page text goes nowhere.
        env.page_texts().forget(tab_id, drop_id);
    }
    if let Err(e) = &outcome {
        env.ui().note(tab_id, &e.note()).await;
    }
    outcome
}

/// What became of a drop's page text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageTextOutcome {
    /// At the hub, with its reading (or, when the page could not be read, the hub told it will not come).
    Sent,
    /// The hub had that reading's answer already.
    Already,
    /// Its drop is still being pinned: it goes once the pin is made.
    Held,
    /// Joined the reading the consent window will pin.
    Joined,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageTextSent {
    pub page_text: PageTextOutcome,
}

/// The second message of a drop in two: the whole page's observation (`""` when the page could not
/// be read), from the same tab, naming the same drop. Its page text goes to the reading the first
/// message pinned (never a second pin), or joins the consent's reading; a tab or drop id that no
/// first message named is refused.
pub async fn drop_text<E: Env>(
    env: &E,
    tab_id: i64,
    page_url: &str,
    drop_id: &str,
    observation: &str,
) -> Flow<PageTextSent> {
    let arrival = env
        .page_texts()
        .arrived(tab_id, drop_id, observation, env.clock().now_ms());
    let page_text = match arrival {
        Arrival::Unknown => return Err(FlowError::UnknownDrop),
        Arrival::Held => PageTextOutcome::Held,
        Arrival::Go(to) => send_page_text(env, to, page_url, observation).await?,
    };
    Ok(PageTextSent { page_text })
}

/// The page text of `pointed` from a whole-page observation of the page the browser says sent it;
/// `None` when there is none to give (the page could not be read, or it is another page).
fn page_text_from(observation: &str, page_url: &str, pointed: &PageReading) -> Option<PageText> {
    if observation.is_empty() {
        return None;
    }
    let observation = Observation::from_json(observation).ok()?;
    let origin = |url: &str| web_origin(url).map(|o| o.origin);
    if observation.how != How::Drop
        || origin(page_url).is_none()
        || origin(page_url) != origin(&pointed.url)
    {
        return None;
    }
    page_text_for(&observation, pointed).ok()
}

/// Sends a drop's page text where it goes.
async fn send_page_text<E: Env>(
    env: &E,
    to: Destination,
    page_url: &str,
    observation: &str,
) -> Flow<PageTextOutcome> {
    match to {
        Destination::Pin {
            pairing_id,
            reading_id,
            pointed,
        } => {
            let text = page_text_from(observation, page_url, &pointed);
            let state = env.store().load().await?;
            let record = state.live(&pairing_id).ok_or(FlowError::UnknownPairing)?;
            let grant = env
                .vault()
                .get(&record.id)
                .await?
                .ok_or(HubCallError::GrantUnknown)?;
            // A page with no main text sends an empty one (whole); only an unreadable page sends
            // none (the hub then stops waiting and says it did not come).
            let sent = hub_api::page_text(
                env.http(),
                &record.endpoints,
                &grant,
                &reading_id,
                text.as_ref().map(|t| t.text.as_deref().unwrap_or("")),
                text.as_ref().is_some_and(|t| t.truncated),
            )
            .await;
            match sent {
                Ok(true) => Ok(PageTextOutcome::Sent),
                Ok(false) => Ok(PageTextOutcome::Already),
                Err(e) => {
                    note_hub_error(env, &record.id, &e).await?;
                    Err(e.into())
                }
            }
        }
        Destination::Consent { consent_id } => {
            let mut consent = env
                .store()
                .get_consent(&consent_id)
                .await?
                .ok_or(FlowError::UnknownConsent)?;
            let Some(reading) = consent.reading.as_mut() else {
                return Err(FlowError::UnknownConsent);
            };
            match page_text_from(observation, page_url, reading) {
                Some(text) => {
                    reading.page_text = text.text;
                    if text.truncated {
                        reading.truncated = Some(true);
                    }
                }
                // Not coming: the reading is pinned without it, marked as cut.
                None => reading.truncated = Some(true),
            }
            consent.text_of_drop = None;
            env.store().put_consent(&consent).await?;
            Ok(PageTextOutcome::Joined)
        }
    }
}

async fn drop_inner<E: Env>(
    env: &E,
    tab_id: i64,
    page_url: &str,
    payload: &str,
    observation: &str,
    drop_id: Option<&str>,
) -> Flow<DropOutcome> {
    let payload = parse_drag_payload(payload).map_err(|e| FlowError::BadPayload(e.to_string()))?;
    let (Some(hub_origin), Some(ticket)) = (payload.hub.clone(), payload.ticket.clone()) else {
        return Err(FlowError::BadPayload(
            "it names no hub and ticket to pair through".into(),
        ));
    };
    let page = web_origin(page_url).ok_or(FlowError::NotAWebPage)?;
    // The page's apc.json is asked for first and the reading is made while that request is out
    // (`join` polls in order: the request goes, then the reading runs); the reading goes nowhere
    // unless the answer says this is an ordinary page, and its own refusal comes after that answer.
    let (check, reading) =
        futures::future::join(super::app_checks::check_app(env, &page.origin), async {
            reading_or_pointed_from(env, observation, page_url, &[How::Drop], drop_id.is_some())
        })
        .await;
    match answer_drop(&page.origin, &page.host, check) {
        DropAnswer::Ordinary => {}
        DropAnswer::DirectOnly(note) | DropAnswer::CouldNotCheck(note) => {
            let shown = Note {
                kind: NoteKind::Note,
                text: NoteText::Plain(note.text.clone()),
                link: note.link.clone(),
                undo_token: None,
            };
            env.ui().note(tab_id, &shown).await;
            return Ok(DropOutcome::Answered {
                answered: true,
                note: note.text,
                link: note.link,
            });
        }
    }
    let reading = reading?;
    let state = env.store().load().await?;
    if let Some(record) = state.find_live(&hub_origin, &payload.agent).cloned() {
        // An existing pairing still pins a drop only with this drag's own fresh ticket.
        let focus = pin_with(
            env,
            &record,
            &reading,
            Some(&ticket),
            Some(tab_id),
            drop_id.is_some(),
        )
        .await?;
        if let Some(drop_id) = drop_id {
            let to = Destination::Pin {
                pairing_id: record.id.clone(),
                reading_id: focus.target.id.clone().unwrap_or_default(),
                pointed: Box::new(reading),
            };
            // Its page text came while the pin was being made: it goes now.
            if let Some(early) = env.page_texts().ready(tab_id, drop_id, to.clone()) {
                send_page_text(env, to, page_url, &early).await.ok();
            }
        }
        return Ok(DropOutcome::Pinned {
            pinned: Box::new(focus),
        });
    }
    let hub = hub_api::read_hub(env.http(), &hub_origin).await?;
    let preview = hub_api::preview(env.http(), &hub, &ticket).await?;
    if preview.agent.handle != payload.agent {
        return Err(FlowError::BadPayload(
            "its ticket was made for another agent".into(),
        ));
    }
    let consent = PendingConsent {
        id: env.clock().new_id(),
        created_at_ms: env.clock().now_ms(),
        how: PairedBy::Drop,
        hub_origin: hub.origin.clone(),
        hub_name: hub.name.clone(),
        endpoints: Some(hub.endpoints.clone()),
        agent_handle: preview.agent.handle,
        agent_name: preview.agent.name,
        ticket,
        tab_id: Some(tab_id),
        page_url: Some(reading.url.clone()),
        reading: Some(reading),
        text_of_drop: drop_id.map(str::to_owned),
    };
    open_consent(env, &consent).await?;
    if let Some(drop_id) = drop_id {
        let to = Destination::Consent {
            consent_id: consent.id.clone(),
        };
        if let Some(early) = env.page_texts().ready(tab_id, drop_id, to.clone()) {
            send_page_text(env, to, page_url, &early).await.ok();
        }
    }
    let text = Msg::new(
        "noteAnswerInWindow",
        [consent.agent_name.clone(), display_origin(&hub.origin)],
    );
    env.ui().note(tab_id, &Note::info(text)).await;
    Ok(DropOutcome::Consent {
        consent: consent.id,
    })
}

async fn open_consent<E: Env>(env: &E, consent: &PendingConsent) -> Flow<()> {
    env.store().put_consent(consent).await?;
    if let Some(window) = env.ui().open_consent(&consent.id).await? {
        env.store().put_consent_window(window, &consent.id).await?;
    }
    Ok(())
}

/// Keeps a pin the hub made, and tells the page (with Undo).
async fn kept_pin<E: Env>(
    env: &E,
    record: &PairingRecord,
    focus: &FocusPayload,
    tab_id: Option<i64>,
) -> Flow<()> {
    let pin = PinState {
        id: focus.target.id.clone().unwrap_or_default(),
        pinned_at: focus.pinned_at.clone(),
        seen_at: None,
    };
    let at = now(env);
    let (_, state) = env
        .store()
        .update(|s| s.pinned(&record.id, pin.clone(), &at))
        .await?;
    show_toolbar(env, &state).await;
    if let Some(tab) = tab_id {
        let note = Note {
            kind: NoteKind::Pointed,
            text: NoteText::Msg(Msg::new(
                "notePointed",
                [
                    record.agent_name.clone(),
                    display_origin(&record.hub_origin),
                ],
            )),
            link: None,
            undo_token: Some(undo_token(&record.id, &pin.id)),
        };
        env.ui().note(tab, &note).await;
    }
    Ok(())
}

/// Pins a reading for a pairing (with a drop's ticket, or none for a selection), and keeps what
/// the hub said of it.
async fn pin_with<E: Env>(
    env: &E,
    record: &PairingRecord,
    reading: &PageReading,
    ticket: Option<&str>,
    tab_id: Option<i64>,
    text_follows: bool,
) -> Flow<FocusPayload> {
    let outcome = match env.vault().get(&record.id).await? {
        Some(grant) => {
            hub_api::pin(
                env.http(),
                &record.endpoints,
                &grant,
                reading,
                ticket,
                text_follows,
            )
            .await
        }
        None => Err(HubCallError::GrantUnknown),
    };
    match outcome {
        Ok(focus) => {
            kept_pin(env, record, &focus, tab_id).await?;
            Ok(focus)
        }
        Err(e) => {
            note_hub_error(env, &record.id, &e).await?;
            Err(e.into())
        }
    }
}

/// Keeps what a failed call says of the pairing: revoked or forgotten by the hub (its grant is then
/// deleted: it will never work again), or the hub out of reach. A refusal of one request (a ticket
/// used, a reading too large) says nothing of the pairing.
async fn note_hub_error<E: Env>(env: &E, pairing_id: &str, error: &HubCallError) -> Flow<()> {
    let at = now(env);
    let hub_state = match error {
        HubCallError::Revoked { by } => HubState::RevokedByHub { at, by: by.clone() },
        HubCallError::GrantUnknown => HubState::Forgotten { at },
        HubCallError::Unreachable(reason) => HubState::Unreachable {
            at,
            reason: reason.clone(),
        },
        _ => return Ok(()),
    };
    let (gone, state) = env
        .store()
        .update(|s| s.hub_said(pairing_id, hub_state))
        .await?;
    if gone {
        env.vault().delete(pairing_id).await?;
    }
    show_toolbar(env, &state).await;
    Ok(())
}

/// The consent window asks what it is for.
pub async fn consent_get<E: Env>(env: &E, id: &str) -> Flow<ConsentAsked> {
    let c = env
        .store()
        .get_consent(id)
        .await?
        .ok_or(FlowError::UnknownConsent)?;
    let state = env.store().load().await?;
    Ok(ConsentAsked {
        consent: ConsentView {
            hub_display: display_origin(&c.hub_origin),
            hub_new: !state.knows_hub(&c.hub_origin),
            hub_loopback: apc_core::is_loopback_url(&c.hub_origin),
            page_display: c.page_url.as_deref().map(display_origin),
            id: c.id,
            how: c.how,
            hub_origin: c.hub_origin,
            hub_name: c.hub_name,
            agent_handle: c.agent_handle,
            agent_name: c.agent_name,
            allow_after_ms: ALLOW_DELAY_MS,
        },
    })
}

/// The person's answer in the consent window. Allow pairs (and, for a drop, pins that drop's reading
/// in the same request, spending its ticket once).
pub async fn consent_answer<E: Env>(env: &E, id: &str, allow: bool) -> Flow<ConsentOutcome> {
    let c = env
        .store()
        .get_consent(id)
        .await?
        .ok_or(FlowError::UnknownConsent)?;
    if allow && env.clock().now_ms() < c.created_at_ms + u64::from(ALLOW_DELAY_MS) {
        return Err(FlowError::AllowTooSoon);
    }
    env.store().delete_consent(id).await?;
    let mut c = c;
    if let (Some(drop_id), Some(tab), Some(reading)) =
        (c.text_of_drop.take(), c.tab_id, c.reading.as_mut())
    {
        // The page text had not joined the reading by the answer: it is pinned without it, marked
        // as cut, and a text that comes later goes nowhere.
        env.page_texts().forget(tab, &drop_id);
        reading.truncated = Some(true);
    }
    let c = c;
    let tell = |note: Note| async move {
        if let Some(tab) = c.tab_id {
            env.ui().note(tab, &note).await;
        }
    };
    if !allow {
        tell(Note::info(Msg::new(
            "noteNotAllowed",
            [c.agent_name.clone()],
        )))
        .await;
        return Ok(ConsentOutcome {
            paired: false,
            pinned: false,
            agent_name: None,
        });
    }
    let hub = match &c.endpoints {
        Some(endpoints) => HubPage {
            origin: c.hub_origin.clone(),
            name: c.hub_name.clone(),
            endpoints: endpoints.clone(),
        },
        None => hub_api::read_hub(env.http(), &c.hub_origin).await?,
    };
    let answer = hub_api::pair(
        env.http(),
        &hub,
        &c.ticket,
        &c.agent_handle,
        c.reading.as_ref(),
    )
    .await;
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            // The hub's own words (or the transport's) follow "Not paired:".
            tell(Note {
                kind: NoteKind::Error,
                text: NoteText::Msg(Msg::new("noteNotPaired", [e.to_string()])),
                link: None,
                undo_token: None,
            })
            .await;
            return Err(e.into());
        }
    };
    let pairing = answer.pairing;
    let record = PairingRecord {
        id: pairing.id.clone(),
        hub_origin: hub.origin.clone(),
        hub_name: pairing.hub.name.clone(),
        agent_handle: pairing.agent.handle.clone(),
        agent_name: pairing.agent.name.clone(),
        created_at: pairing.created_at.clone(),
        endpoints: hub.endpoints.clone(),
        paired_by: c.how,
        pin: None,
        hub: HubState::Reachable { at: now(env) },
    };
    let (added, state) = env.store().update(|s| s.add(record.clone())).await?;
    let replaced = match added {
        Ok(replaced) => replaced,
        Err(duplicate) => {
            tell(Note::error(duplicate.to_string())).await;
            return Err(duplicate.into());
        }
    };
    env.vault().put(&pairing.id, &pairing.grant).await?;
    if let Some(old) = replaced {
        env.vault().delete(&old).await?;
    }
    show_toolbar(env, &state).await;
    let pinned = match &answer.focus {
        Some(focus) => {
            kept_pin(env, &record, focus, c.tab_id).await?;
            true
        }
        None => {
            if c.reading.is_some() {
                tell(Note::info(Msg::new(
                    "notePairedNotPinned",
                    [record.agent_name.clone()],
                )))
                .await;
            }
            false
        }
    };
    Ok(ConsentOutcome {
        paired: true,
        pinned,
        agent_name: Some(record.agent_name),
    })
}

/// A window closed: if it was a consent window still waiting, closing it said no.
pub async fn window_closed<E: Env>(env: &E, window_id: i64) -> Flow<()> {
    if let Some(id) = env.store().take_consent_window(window_id).await? {
        if env.store().get_consent(&id).await?.is_some() {
            consent_answer(env, &id, false).await?;
        }
    }
    Ok(())
}

/// Pairing with the code the dock shows: the hub is checked, then the person answers in the consent
/// window.
pub async fn pair_code<E: Env>(env: &E, hub_address: &str, code: &str) -> Flow<ConsentOpened> {
    let origin = hub_address_origin(hub_address)
        .ok_or_else(|| FlowError::HubInvalid(hub_address.trim().chars().take(200).collect()))?;
    let ticket = normalize_pairing_code(code)?;
    let hub = hub_api::read_hub(env.http(), &origin).await?;
    let preview = hub_api::preview(env.http(), &hub, &ticket).await?;
    let consent = PendingConsent {
        id: env.clock().new_id(),
        created_at_ms: env.clock().now_ms(),
        how: PairedBy::Code,
        hub_origin: hub.origin.clone(),
        hub_name: hub.name.clone(),
        endpoints: Some(hub.endpoints),
        agent_handle: preview.agent.handle,
        agent_name: preview.agent.name,
        ticket,
        ..PendingConsent::default()
    };
    open_consent(env, &consent).await?;
    Ok(ConsentOpened {
        consent: consent.id,
    })
}

/// Points a pairing's agent at the selection of a tab (popup, context menu, keyboard command). No
/// ticket: these are the person's own acts in browser UI.
pub async fn point_selection<E: Env>(env: &E, by: PointBy, tab: Option<Tab>) -> Flow<Pinned> {
    let tab = match tab {
        Some(tab) => tab,
        None => env.ui().active_tab().await.ok_or(FlowError::NotAWebPage)?,
    };
    let outcome = point_inner(env, by, &tab).await;
    if let Err(e) = &outcome {
        env.ui().note(tab.id, &e.note()).await;
    }
    outcome
}

async fn point_inner<E: Env>(env: &E, by: PointBy, tab: &Tab) -> Flow<Pinned> {
    web_origin(&tab.url).ok_or(FlowError::NotAWebPage)?;
    let state = env.store().load().await?;
    let (record, how, chosen) = match &by {
        PointBy::Popup(id) | PointBy::Menu(id) => (
            state.live(id).cloned().ok_or(FlowError::UnknownPairing)?,
            How::Selection,
            true,
        ),
        PointBy::Command => {
            let record = state.command_default().cloned().ok_or_else(|| {
                if state.pairings.iter().any(PairingRecord::is_live) {
                    FlowError::NoCommandDefault
                } else {
                    FlowError::NoPairing
                }
            })?;
            (record, How::Command, false)
        }
    };
    let observation = match env
        .ui()
        .collect(tab.id, how)
        .await
        .map_err(|_| FlowError::PageUnreachable)?
    {
        Collected::Observation(json) => json,
        Collected::Refused(code) if code == "no_selection" => return Err(FlowError::NoSelection),
        Collected::Refused(_) => return Err(FlowError::PageUnreachable),
    };
    let reading = reading_from(env, &observation, &tab.url, &[how])?;
    let focus = pin_with(env, &record, &reading, None, Some(tab.id), false).await?;
    if chosen {
        env.store().update(|s| s.choose(&record.id)).await?;
    }
    Ok(Pinned {
        pinned: Box::new(focus),
    })
}

/// Unpins a pairing's reading (the popup's Unpin; Undo in the page when the pin is still that one).
pub async fn unpin<E: Env>(
    env: &E,
    pairing_id: &str,
    only_reading: Option<&str>,
) -> Flow<Unpinned> {
    let state = env.store().load().await?;
    let record = state
        .live(pairing_id)
        .cloned()
        .ok_or(FlowError::UnknownPairing)?;
    if let Some(reading) = only_reading {
        if record.pin.as_ref().map(|p| p.id.as_str()) != Some(reading) {
            return Ok(Unpinned { unpinned: false });
        }
    }
    let grant = env
        .vault()
        .get(pairing_id)
        .await?
        .ok_or(FlowError::Hub(HubCallError::GrantUnknown))?;
    if let Err(e) = hub_api::unpin(env.http(), &record.endpoints, &grant).await {
        note_hub_error(env, pairing_id, &e).await?;
        return Err(e.into());
    }
    let (_, state) = env
        .store()
        .update(|s| {
            if let Some(p) = s.get_mut(pairing_id) {
                p.pin = None;
            }
        })
        .await?;
    show_toolbar(env, &state).await;
    Ok(Unpinned { unpinned: true })
}

/// Undo in the page.
pub async fn undo<E: Env>(env: &E, tab_id: i64, token: &str) -> Flow<Unpinned> {
    let out = match parse_undo_token(token) {
        Some((pairing, reading)) => unpin(env, pairing, Some(reading)).await,
        None => Err(FlowError::UnknownPairing),
    };
    let note = match &out {
        Ok(Unpinned { unpinned: true }) => Note::info(Msg::new("noteUndone", [])),
        Ok(Unpinned { unpinned: false }) => Note::info(Msg::new("noteUndoStale", [])),
        Err(e) => e.note(),
    };
    env.ui().note(tab_id, &note).await;
    out
}

/// The content script says the page hid the note it showed: the toolbar button of that tab says
/// what the note could not.
pub async fn note_hidden<E: Env>(env: &E, tab_id: i64) -> Flow<()> {
    env.ui()
        .alert_tab(tab_id, &Msg::new("noteHiddenByPage", []))
        .await;
    Ok(())
}

/// Revoke in the extension: holds at once, whatever the hub; then the grant is given back.
pub async fn revoke<E: Env>(env: &E, pairing_id: &str) -> Flow<Revoked> {
    let at = now(env);
    let (revoked, state) = env.store().update(|s| s.revoke(pairing_id, &at)).await?;
    show_toolbar(env, &state).await;
    match revoked {
        None => return Err(FlowError::UnknownPairing),
        Some(false) => env.vault().delete(pairing_id).await?,
        Some(true) => {}
    }
    let pending = retry_give_backs(env, TryBy::Person).await?;
    Ok(Revoked {
        give_back: if pending.iter().any(|id| id == pairing_id) {
            GiveBackOutcome::Pending
        } else {
            GiveBackOutcome::Done
        },
    })
}

/// Tries each give back that is due (or, when the person asks, each one still waiting) once;
/// returns the pairing ids still waiting or stopped.
pub async fn retry_give_backs<E: Env>(env: &E, by: TryBy) -> Flow<Vec<String>> {
    let state = env.store().load().await?;
    for g in state.due_give_backs(env.clock().now_ms(), by) {
        let outcome = match env.vault().get(&g.pairing_id).await? {
            Some(grant) => hub_api::give_back(env.http(), &g.grant_url, &grant).await,
            None => Ok(()),
        };
        let id = g.pairing_id.clone();
        match outcome {
            Ok(()) => {
                env.vault().delete(&id).await?;
                env.store().update(|s| s.give_back_done(&id)).await?;
            }
            Err(e) => {
                let now_ms = env.clock().now_ms();
                let (stopped, _) = env
                    .store()
                    .update(|s| s.give_back_failed(&id, e.to_string(), now_ms, by))
                    .await?;
                if stopped {
                    env.vault().delete(&id).await?;
                }
            }
        }
    }
    let state = env.store().load().await?;
    show_toolbar(env, &state).await;
    Ok(state
        .give_backs
        .iter()
        .map(|g| g.pairing_id.clone())
        .collect())
}

/// The person read that a give back stopped: the entry goes.
pub async fn dismiss_give_back<E: Env>(env: &E, pairing_id: &str) -> Flow<()> {
    let (found, state) = env
        .store()
        .update(|s| s.dismiss_give_back(pairing_id))
        .await?;
    show_toolbar(env, &state).await;
    found.then_some(()).ok_or(FlowError::UnknownPairing)
}

/// Asks each hub how its pairing's pin stands (all hubs at once: a hub that is down costs its time
/// limit once, not once per pairing).
pub async fn refresh_status<E: Env>(env: &E) -> Flow<()> {
    let state = env.store().load().await?;
    let live: Vec<&PairingRecord> = state.pairings.iter().filter(|p| p.is_live()).collect();
    let mut grants = Vec::new();
    for record in &live {
        grants.push(env.vault().get(&record.id).await?);
    }
    let asks = live.iter().zip(&grants).map(|(record, grant)| async move {
        match grant {
            Some(grant) => Some(hub_api::status(env.http(), &record.endpoints, grant).await),
            None => None,
        }
    });
    let answers = futures::future::join_all(asks).await;
    for (record, answer) in live.into_iter().zip(answers) {
        match answer {
            None => {}
            Some(Ok(status)) => {
                let at = now(env);
                let (_, state) = env
                    .store()
                    .update(|s| {
                        if let Some(p) = s.get_mut(&record.id) {
                            p.hub = HubState::Reachable { at };
                            p.pin = status.pin;
                        }
                    })
                    .await?;
                show_toolbar(env, &state).await;
            }
            Some(Err(e)) => note_hub_error(env, &record.id, &e).await?,
        }
    }
    Ok(())
}

/// What the popup shows; with `refresh`, after asking the hubs and retrying due give backs.
pub async fn popup_state<E: Env>(env: &E, refresh: bool) -> Flow<PopupView> {
    if refresh {
        refresh_status(env).await?;
        retry_give_backs(env, TryBy::Person).await?;
    }
    let state = env.store().load().await?;
    let web = env
        .ui()
        .active_tab()
        .await
        .is_some_and(|tab| web_origin(&tab.url).is_some());
    Ok(PopupView::new(&state, web))
}

/// Start-up of the background (installed, updated, browser started): badge, menus, give backs.
pub async fn start<E: Env>(env: &E) -> Flow<()> {
    let state = env.store().load().await?;
    show_toolbar(env, &state).await;
    retry_give_backs(env, TryBy::Timer).await?;
    Ok(())
}
