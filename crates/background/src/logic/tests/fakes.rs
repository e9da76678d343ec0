//! In-memory fakes of the ports: one [`World`] implements every port, holding the extension's
//! storage, its grant vault, the browser UI it drove, a clock, and a fake hub (plus web pages) behind
//! the HTTP port.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use apc_core::page_link::{
    AgentRef, GrantStatus, How, HubRef, PageTextRequest, PairRequest, PairResponse, Pairing,
    PinRequest, PinResponse, PinState, TicketPreview,
};
use apc_core::{revoked_answer, FocusPayload, FocusTarget};
use serde_json::{json, Value};

use crate::logic::ports::*;
use crate::logic::state::State;
use crate::logic::views::{Msg, Note, ToolbarView};

pub const HUB: &str = "http://127.0.0.1:7410";
pub const PAGE: &str = "https://example.org/article";
pub const TAB: i64 = 7;

/// How the fake hub answers right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HubMode {
    Up,
    /// Nothing listens.
    Down,
    /// Answers, after making the caller wait (the future is pending a few times).
    Slow,
    /// Answers nothing within the time limit.
    TooSlow,
    /// 503 with an HTML body.
    Error5xx,
}

#[derive(Debug, Clone)]
struct Ticket {
    agent: String,
    spent: bool,
}

#[derive(Debug, Clone)]
struct HubPairing {
    agent: String,
    revoked: bool,
    pin: Option<PinState>,
}

/// A hub speaking the page app link.
#[derive(Debug)]
pub struct FakeHub {
    pub mode: Cell<HubMode>,
    agents: RefCell<BTreeMap<String, String>>,
    tickets: RefCell<BTreeMap<String, Ticket>>,
    /// grant -> pairing
    pairings: RefCell<BTreeMap<String, HubPairing>>,
    counter: Cell<u32>,
    /// Every request that reached the hub (or would have).
    pub requests: RefCell<Vec<HttpRequest>>,
    /// Forced pairing ids (to test what the extension does with bad ones).
    pub next_pairing_id: RefCell<Option<String>>,
    /// `apc.json` answers of web pages by origin; 404 when absent.
    pub sites: RefCell<BTreeMap<String, (u16, String)>>,
    /// How many polls a web page's `apc.json` answer takes (0: at once), as a network does.
    pub site_latency: Cell<u32>,
    /// What happened, in order: `asked <url>` and `answered <url>` for web pages' `apc.json`, and
    /// `clock` for every read of the time (a reading reads it once, for `made_at`).
    pub events: RefCell<Vec<String>>,
    /// Every reading pinned, by id: the reading as the hub keeps it, and whether its page text is
    /// `whole`, `coming` or `missing`.
    pub readings: RefCell<BTreeMap<String, (Value, &'static str)>>,
}

impl FakeHub {
    fn new() -> Self {
        let hub = Self {
            mode: Cell::new(HubMode::Up),
            agents: RefCell::default(),
            tickets: RefCell::default(),
            pairings: RefCell::default(),
            counter: Cell::new(0),
            requests: RefCell::default(),
            next_pairing_id: RefCell::default(),
            sites: RefCell::default(),
            site_latency: Cell::new(0),
            events: RefCell::default(),
            readings: RefCell::default(),
        };
        hub.agents
            .borrow_mut()
            .insert("ag_claude".into(), "Claude".into());
        hub.agents
            .borrow_mut()
            .insert("ag_cursor".into(), "Cursor".into());
        hub
    }

    fn next(&self) -> u32 {
        self.counter.set(self.counter.get() + 1);
        self.counter.get()
    }

    /// Mints a fresh ticket for an agent, as the dock does on pointerdown of its mark.
    pub fn mint(&self, agent: &str) -> String {
        let ticket = format!("TK{:018}", self.next());
        self.tickets.borrow_mut().insert(
            ticket.clone(),
            Ticket {
                agent: agent.into(),
                spent: false,
            },
        );
        ticket
    }

    /// The dock's person revokes every pairing of an agent.
    pub fn revoke_on_dock(&self, agent: &str) {
        for p in self.pairings.borrow_mut().values_mut() {
            if p.agent == agent {
                p.revoked = true;
            }
        }
    }

    /// The hub forgets every pairing (a new database).
    pub fn forget_all(&self) {
        self.pairings.borrow_mut().clear();
    }

    /// The agent reads its pin.
    pub fn agent_reads(&self, agent: &str) {
        for p in self.pairings.borrow_mut().values_mut() {
            if p.agent == agent {
                if let Some(pin) = &mut p.pin {
                    pin.seen_at = Some("2026-11-30T09:00:00Z".into());
                }
            }
        }
    }

    pub fn live_pairings(&self) -> usize {
        self.pairings
            .borrow()
            .values()
            .filter(|p| !p.revoked)
            .count()
    }

    pub fn pin_of(&self, agent: &str) -> Option<PinState> {
        self.pairings
            .borrow()
            .values()
            .find(|p| p.agent == agent)
            .and_then(|p| p.pin.clone())
    }

    /// The requests that named a path (e.g. `/page/pin`), with their method.
    pub fn calls(&self, path: &str) -> Vec<HttpRequest> {
        self.requests
            .borrow()
            .iter()
            .filter(|r| r.url.contains(path))
            .cloned()
            .collect()
    }

    fn manifest() -> Value {
        json!({
            "name": "apc-hub", "standard": "0.7.0", "origin": HUB, "profiles": ["hub"],
            "mcp": { "path": apc_core::APC_DEFAULT_MCP_PATH },
            "dock": { "pair": format!("{HUB}/apc/pair"), "confirm": format!("{HUB}/apc/confirm") },
            "page": { "pair": format!("{HUB}/page/pair"), "pin": format!("{HUB}/page/pin"), "grant": format!("{HUB}/page/grant") }
        })
    }

    fn refuse(status: u16, code: &str) -> (u16, Value) {
        (
            status,
            json!({ "error": code, "message": format!("refused: {code}") }),
        )
    }

    /// Spends a ticket for `agent`, or says why not.
    fn spend(&self, ticket: Option<&str>, agent: &str) -> Result<(), (u16, Value)> {
        let Some(ticket) = ticket else {
            return Err(Self::refuse(400, "ticket_required"));
        };
        let mut tickets = self.tickets.borrow_mut();
        match tickets.get_mut(ticket) {
            Some(t) if t.agent != agent => Err(Self::refuse(404, "ticket_unknown")),
            None => Err(Self::refuse(404, "ticket_unknown")),
            Some(t) if t.spent => Err(Self::refuse(410, "ticket_used")),
            Some(t) => {
                t.spent = true;
                Ok(())
            }
        }
    }

    fn focus(&self, pin: &PinState) -> FocusPayload {
        FocusPayload {
            target: FocusTarget {
                kind: "page_reading".into(),
                id: Some(pin.id.clone()),
                part: None,
                params: None,
            },
            app_url: "https://example.org".into(),
            pinned_at: pin.pinned_at.clone(),
            next: "page__get_reading".into(),
            next_args: serde_json::Map::new(),
            part_note: None,
            trimmed: None,
            gone: None,
            app: None,
        }
    }

    fn new_pin(&self) -> PinState {
        PinState {
            id: format!("rd_{:032}", self.next()),
            pinned_at: "2026-11-30T08:00:00Z".into(),
            seen_at: None,
        }
    }

    fn handle(&self, req: &HttpRequest) -> (u16, Value) {
        let path = req.url.strip_prefix(HUB).unwrap_or("");
        let body: Value = req
            .json_body
            .as_deref()
            .and_then(|b| serde_json::from_str(b).ok())
            .unwrap_or(Value::Null);
        let grant = req.bearer.clone().unwrap_or_default();
        let (route, query) = path.split_once('?').unwrap_or((path, ""));
        match (req.method, route) {
            (Method::Get, "/.well-known/apc.json") => (200, Self::manifest()),
            (Method::Get, "/page/pair") => {
                let ticket = query.strip_prefix("ticket=").unwrap_or("");
                let tickets = self.tickets.borrow();
                match tickets.get(ticket) {
                    None => Self::refuse(404, "ticket_unknown"),
                    Some(t) if t.spent => Self::refuse(410, "ticket_used"),
                    Some(t) => {
                        let preview = TicketPreview {
                            agent: AgentRef {
                                handle: t.agent.clone(),
                                name: self.agents.borrow()[&t.agent].clone(),
                            },
                            hub: HubRef {
                                origin: HUB.into(),
                                name: "apc-hub".into(),
                            },
                            expires_in: 300,
                        };
                        (200, serde_json::to_value(preview).unwrap())
                    }
                }
            }
            (Method::Post, "/page/pair") => {
                let Ok(request) = serde_json::from_value::<PairRequest>(body) else {
                    return Self::refuse(400, "invalid_request");
                };
                if let Err(refusal) = self.spend(Some(&request.ticket), &request.agent) {
                    return refusal;
                }
                let id = self
                    .next_pairing_id
                    .borrow_mut()
                    .take()
                    .unwrap_or_else(|| format!("pr_{:016}", self.next()));
                let grant = format!("grant_{:040}", self.next());
                let pin = request.reading.as_ref().map(|_| self.new_pin());
                if let (Some(pin), Some(reading)) = (&pin, &request.reading) {
                    self.readings.borrow_mut().insert(
                        pin.id.clone(),
                        (serde_json::to_value(reading).unwrap(), "whole"),
                    );
                }
                // One agent, one pairing: pairing again replaces.
                self.pairings
                    .borrow_mut()
                    .retain(|_, p| p.agent != request.agent);
                self.pairings.borrow_mut().insert(
                    grant.clone(),
                    HubPairing {
                        agent: request.agent.clone(),
                        revoked: false,
                        pin: pin.clone(),
                    },
                );
                let answer = PairResponse {
                    pairing: Pairing {
                        id,
                        agent: AgentRef {
                            handle: request.agent.clone(),
                            name: self.agents.borrow()[&request.agent].clone(),
                        },
                        hub: HubRef {
                            origin: HUB.into(),
                            name: "apc-hub".into(),
                        },
                        grant,
                        created_at: "2026-11-30T08:00:00Z".into(),
                    },
                    focus: pin.as_ref().map(|p| self.focus(p)),
                };
                (201, serde_json::to_value(answer).unwrap())
            }
            (method, "/page/pin" | "/page/grant") => {
                let (agent, revoked) = match self.pairings.borrow().get(&grant) {
                    None => return Self::refuse(404, "grant_unknown"),
                    Some(p) => (p.agent.clone(), p.revoked),
                };
                if revoked {
                    let answer = revoked_answer("127.0.0.1:7410", "2026-11-30T08:30:00Z");
                    return (403, serde_json::to_value(answer).unwrap());
                }
                match (method, route) {
                    (Method::Put, "/page/pin") if body.get("reading_id").is_some() => {
                        let Ok(request) = serde_json::from_value::<PageTextRequest>(body) else {
                            return Self::refuse(400, "invalid_request");
                        };
                        let current = self.pairings.borrow()[&grant].pin.clone();
                        if current.map(|p| p.id) != Some(request.reading_id.clone()) {
                            return Self::refuse(404, "reading_unknown");
                        }
                        let mut readings = self.readings.borrow_mut();
                        let (reading, state) = readings.get_mut(&request.reading_id).unwrap();
                        if *state != "coming" {
                            return (200, json!({ "attached": false }));
                        }
                        *state = match request.page_text {
                            Some(text) => {
                                reading["page_text"] = json!(text);
                                if request.truncated == Some(true) {
                                    reading["truncated"] = json!(true);
                                }
                                "whole"
                            }
                            None => "missing",
                        };
                        (200, json!({ "attached": true }))
                    }
                    (Method::Put, "/page/pin") => {
                        let Ok(request) = serde_json::from_value::<PinRequest>(body) else {
                            return Self::refuse(400, "invalid_request");
                        };
                        if request.reading.pointed.how == How::Drop {
                            if let Err(refusal) = self.spend(request.ticket.as_deref(), &agent) {
                                return refusal;
                            }
                        }
                        let pin = self.new_pin();
                        self.readings.borrow_mut().insert(
                            pin.id.clone(),
                            (
                                serde_json::to_value(&request.reading).unwrap(),
                                if request.text_follows {
                                    "coming"
                                } else {
                                    "whole"
                                },
                            ),
                        );
                        self.pairings.borrow_mut().get_mut(&grant).unwrap().pin = Some(pin.clone());
                        let answer = PinResponse {
                            focus: self.focus(&pin),
                        };
                        (200, serde_json::to_value(answer).unwrap())
                    }
                    (Method::Delete, "/page/pin") => {
                        self.pairings.borrow_mut().get_mut(&grant).unwrap().pin = None;
                        (204, Value::Null)
                    }
                    (Method::Get, "/page/grant") => {
                        let pin = self.pairings.borrow()[&grant].pin.clone();
                        let status = GrantStatus {
                            status: "active".into(),
                            pin,
                        };
                        (200, serde_json::to_value(status).unwrap())
                    }
                    (Method::Delete, "/page/grant") => {
                        self.pairings.borrow_mut().remove(&grant);
                        (204, Value::Null)
                    }
                    _ => Self::refuse(405, "invalid_request"),
                }
            }
            _ => Self::refuse(404, "not_found"),
        }
    }
}

/// A future that is pending `n` times before it is ready (a slow answer).
struct Later(u32);

impl Future for Later {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 == 0 {
            return Poll::Ready(());
        }
        self.0 -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[derive(Debug, Default)]
pub struct FakeUi {
    pub notes: RefCell<Vec<(i64, Note)>>,
    pub opened: RefCell<Vec<String>>,
    pub toolbar: RefCell<Option<ToolbarView>>,
    pub active: RefCell<Option<Tab>>,
    /// What the content script answers when asked for the selection (the document asked first).
    pub selection: RefCell<Option<Collected>>,
    /// What other documents of the tab answer, by where they are asked (frames of the page).
    pub frame_selections: RefCell<Vec<(CollectAt, Collected)>>,
    /// Where each collection was asked, in order.
    pub collected_at: RefCell<Vec<CollectAt>>,
    /// What each frame answers about one of its frames being shown (by frame, child), and every
    /// question asked: (frame, child, x, y).
    pub shown: RefCell<BTreeMap<(i64, i64), FrameShown>>,
    pub shown_asked: RefCell<Vec<(i64, i64, f64, f64)>>,
    pub window_ids: Cell<i64>,
    pub alerts: RefCell<Vec<(i64, Msg)>>,
}

/// The whole world a flow runs in.
pub struct World {
    pub state: RefCell<State>,
    pub consents: RefCell<BTreeMap<String, PendingConsent>>,
    pub windows: RefCell<BTreeMap<i64, String>>,
    pub grants: RefCell<BTreeMap<String, String>>,
    pub hub: FakeHub,
    pub ui: FakeUi,
    pub now_ms: Cell<u64>,
    /// What the logic remembers while the background lives (the browser's is kept by `lib.rs`).
    pub memory: crate::logic::memory::Memory,
    ids: Cell<u32>,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    pub fn new() -> Self {
        let world = Self {
            state: RefCell::default(),
            consents: RefCell::default(),
            windows: RefCell::default(),
            grants: RefCell::default(),
            hub: FakeHub::new(),
            ui: FakeUi::default(),
            now_ms: Cell::new(1_795_946_400_000),
            memory: Default::default(),
            ids: Cell::new(0),
        };
        *world.ui.active.borrow_mut() = Some(Tab {
            id: TAB,
            url: PAGE.into(),
            title: "An article".into(),
        });
        world
    }

    /// Runs a flow to its end.
    pub fn run<F: Future>(&self, future: F) -> F::Output {
        futures::executor::block_on(future)
    }

    pub fn advance(&self, ms: u64) {
        self.now_ms.set(self.now_ms.get() + ms);
    }

    pub fn last_note(&self) -> Note {
        self.ui.notes.borrow().last().expect("a note").1.clone()
    }
}

impl Store for World {
    async fn load(&self) -> Result<State, PortError> {
        Ok(self.state.borrow().clone())
    }
    async fn update<R>(
        &self,
        change: impl FnOnce(&mut State) -> R,
    ) -> Result<(R, State), PortError> {
        let mut state = self.state.borrow_mut();
        let out = change(&mut state);
        Ok((out, state.clone()))
    }
    async fn put_consent(&self, consent: &PendingConsent) -> Result<(), PortError> {
        self.consents
            .borrow_mut()
            .insert(consent.id.clone(), consent.clone());
        Ok(())
    }
    async fn get_consent(&self, id: &str) -> Result<Option<PendingConsent>, PortError> {
        Ok(self.consents.borrow().get(id).cloned())
    }
    async fn delete_consent(&self, id: &str) -> Result<(), PortError> {
        self.consents.borrow_mut().remove(id);
        Ok(())
    }
    async fn put_consent_window(&self, window_id: i64, consent_id: &str) -> Result<(), PortError> {
        self.windows
            .borrow_mut()
            .insert(window_id, consent_id.into());
        Ok(())
    }
    async fn take_consent_window(&self, window_id: i64) -> Result<Option<String>, PortError> {
        Ok(self.windows.borrow_mut().remove(&window_id))
    }
}

impl GrantVault for World {
    async fn get(&self, pairing_id: &str) -> Result<Option<String>, PortError> {
        Ok(self.grants.borrow().get(pairing_id).cloned())
    }
    async fn put(&self, pairing_id: &str, grant: &str) -> Result<(), PortError> {
        self.grants
            .borrow_mut()
            .insert(pairing_id.into(), grant.into());
        Ok(())
    }
    async fn delete(&self, pairing_id: &str) -> Result<(), PortError> {
        self.grants.borrow_mut().remove(pairing_id);
        Ok(())
    }
}

impl Http for World {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
        self.hub.requests.borrow_mut().push(request.clone());
        if !request.url.starts_with(HUB) {
            // A web page's apc.json.
            let log = |what: &str| {
                self.hub
                    .events
                    .borrow_mut()
                    .push(format!("{what} {}", request.url))
            };
            log("asked");
            Later(self.hub.site_latency.get()).await;
            log("answered");
            let origin = request.url.split("/.well-known").next().unwrap_or("");
            let (status, body) = self
                .hub
                .sites
                .borrow()
                .get(origin)
                .cloned()
                .unwrap_or((404, "<!doctype html>not found".into()));
            return Ok(HttpResponse {
                status,
                content_type: if status == 404 {
                    "text/html"
                } else {
                    "application/json"
                }
                .into(),
                body: body.into_bytes(),
            });
        }
        match self.hub.mode.get() {
            HubMode::Down => {
                return Err(HttpError::Unreachable("connection refused".into()));
            }
            HubMode::TooSlow => return Err(HttpError::Timeout(request.timeout_ms)),
            HubMode::Error5xx => {
                return Ok(HttpResponse {
                    status: 503,
                    content_type: "text/html".into(),
                    body: b"<h1>Service Unavailable</h1>".to_vec(),
                })
            }
            HubMode::Slow => Later(3).await,
            HubMode::Up => {}
        }
        let (status, body) = self.hub.handle(&request);
        Ok(HttpResponse {
            status,
            content_type: "application/json".into(),
            body: if body.is_null() {
                Vec::new()
            } else {
                body.to_string().into_bytes()
            },
        })
    }
}

impl PageUi for World {
    async fn note(&self, tab_id: i64, note: &Note) {
        self.ui.notes.borrow_mut().push((tab_id, note.clone()));
    }
    async fn collect(
        &self,
        _tab_id: i64,
        _how: How,
        at: &CollectAt,
    ) -> Result<Collected, PortError> {
        self.ui.collected_at.borrow_mut().push(at.clone());
        let framed = self.ui.frame_selections.borrow();
        if let Some((_, answer)) = framed.iter().find(|(place, _)| place == at) {
            return Ok(answer.clone());
        }
        self.ui
            .selection
            .borrow()
            .clone()
            .ok_or_else(|| PortError("no content script".into()))
    }
    async fn frame_shown(
        &self,
        _tab_id: i64,
        frame_id: i64,
        child: i64,
        x: f64,
        y: f64,
    ) -> Result<FrameShown, PortError> {
        self.ui
            .shown_asked
            .borrow_mut()
            .push((frame_id, child, x, y));
        self.ui
            .shown
            .borrow()
            .get(&(frame_id, child))
            .copied()
            .ok_or_else(|| PortError("no such frame".into()))
    }
    async fn open_consent(&self, consent_id: &str) -> Result<Option<i64>, PortError> {
        self.ui.opened.borrow_mut().push(consent_id.into());
        let id = self.ui.window_ids.get() + 1;
        self.ui.window_ids.set(id);
        Ok(Some(id))
    }
    async fn active_tab(&self) -> Option<Tab> {
        self.ui.active.borrow().clone()
    }
    async fn show_toolbar(&self, view: &ToolbarView) {
        *self.ui.toolbar.borrow_mut() = Some(view.clone());
    }
    async fn alert_tab(&self, tab_id: i64, msg: &Msg) {
        self.ui.alerts.borrow_mut().push((tab_id, msg.clone()));
    }
}

impl Clock for World {
    fn now_ms(&self) -> u64 {
        self.hub.events.borrow_mut().push("clock".into());
        self.now_ms.get()
    }
    fn new_id(&self) -> String {
        self.ids.set(self.ids.get() + 1);
        format!("consent-{}", self.ids.get())
    }
}

impl Env for World {
    type Store = World;
    type Vault = World;
    type Http = World;
    type Ui = World;
    type Clock = World;
    fn store(&self) -> &World {
        self
    }
    fn vault(&self) -> &World {
        self
    }
    fn http(&self) -> &World {
        self
    }
    fn ui(&self) -> &World {
        self
    }
    fn clock(&self) -> &World {
        self
    }
}

/// An observation of `url` as a drop's first message sends it: only what lies around the point
/// (the collector stopped there, so it says `truncated`), a drop on "Hello there".
pub fn pointed_observation(url: &str) -> String {
    let mut obs: Value = serde_json::from_str(&observation(How::Drop, url)).unwrap();
    obs["truncated"] = json!(true);
    obs.to_string()
}

/// The whole page's observation, a drop's second message: the pointed paragraph and the article
/// around it.
pub fn page_observation(url: &str) -> String {
    let mut nodes = vec![
        json!({"tag": "html", "kids": [1]}),
        json!({"tag": "body", "style": {"display": "block"}, "kids": [2]}),
        json!({"tag": "article", "style": {"display": "block"}, "kids": []}),
    ];
    let mut kids = vec![];
    for i in 0..12 {
        let p = nodes.len();
        kids.push(p);
        let text = if i == 3 {
            "Hello there, this is the text the person meant.".to_owned()
        } else {
            format!("Paragraph {i} of the article, with commas, and enough words to be the page's main text.")
        };
        nodes.push(json!({"tag": "p", "style": {"display": "block"}, "kids": [p + 1]}));
        nodes.push(json!({ "text": text }));
    }
    nodes[2]["kids"] = json!(kids);
    json!({
        "v": 1, "url": url, "title": "An article", "lang": "en", "how": "drop", "root": 0,
        "nodes": nodes, "truncated": false,
        "point": {"caret": {"node": 10, "offset": 2}, "element": 9}
    })
    .to_string()
}

/// An observation of `PAGE` as the content script sends it (JSON text): a drop on "Hello there",
/// or a selection of it.
pub fn observation(how: How, url: &str) -> String {
    let mut obs = json!({
      "v": 1, "url": url, "title": "An article", "lang": "en", "how": how,
      "root": 0,
      "nodes": [
        {"tag": "html", "kids": [1]},
        {"tag": "body", "style": {"display": "block"}, "kids": [2]},
        {"tag": "p", "style": {"display": "block"}, "kids": [3]},
        {"text": "Hello there, this is the text the person meant."}
      ],
      "truncated": false
    });
    if how == How::Drop {
        obs["point"] = json!({"caret": {"node": 3, "offset": 2}, "element": 2});
    } else {
        obs["selection"] =
            json!({"start": {"node": 3, "offset": 0}, "end": {"node": 3, "offset": 11}});
    }
    obs.to_string()
}

/// The drag payload of an agent's mark with a ticket.
pub fn payload(agent: &str, ticket: &str) -> String {
    json!({ "v": 1, "agent": agent, "hub": HUB, "ticket": ticket }).to_string()
}
