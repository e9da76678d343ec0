//! The dock page at `/`: each agent with its mark, draggable with the `application/x-apc-agent`
//! payload `{ v: 1, agent, hub, ticket }`, the same ticket as a code to type into the extension's
//! popup, how to connect an MCP client, and the agent's pairings with their pin state and Revoke.
//!
//! Server-rendered HTML under a strict CSP (no inline script or style: each mark's colour is a
//! `hue-N` class of `/dock.css`). `GET /` mints no ticket; the script (`/dock.js`, `assets/dock.js`)
//! mints one when the person reaches for a mark (pointerdown, focus, hover) or presses "New code",
//! sets the drag payload, and follows `GET /dock/pairings` so pairings and pin states update live.
//! An agent's connect instructions (its MCP URL is on the page; each client's command, link and
//! file entry are some 4 KiB) come from `GET /dock/connect` when the person opens them, so the page
//! stays small with many agents.
//! Minting needs the page's own script (`Sec-Fetch-Site`, `Origin`, CSRF token); a revoke needs the
//! CSRF token. The page may not be framed.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::clients::Target;
use crate::error::{HubError, HubResult};
use crate::focus::PAGE_APP_NAME;
use crate::places::Places;
use crate::security::{check_dock_change, check_dock_mint, check_dock_read, request_origin};
use crate::state::{now, Hub};
use crate::store::{Agent, DockPairing, PairingStatus};
use apc_core::pairing_code::pairing_code_display;

const DOCK_MAX_BODY: usize = 4096;

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The entity of each byte HTML gives a meaning to in text or in a quoted attribute (`& < > " '`),
/// by the byte's value; `""` for every other byte.
const ENTITIES: [&str; 256] = {
    let mut table = [""; 256];
    table[b'&' as usize] = "&amp;";
    table[b'<' as usize] = "&lt;";
    table[b'>' as usize] = "&gt;";
    table[b'"' as usize] = "&quot;";
    table[b'\'' as usize] = "&#39;";
    table
};

/// `s` written into `out` with HTML's special characters as entities, safe in text and in a quoted
/// attribute alike. The plain runs between them are copied whole; nothing is allocated.
fn write_escaped(out: &mut impl fmt::Write, s: &str) -> fmt::Result {
    let mut plain = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        let entity = ENTITIES[usize::from(b)];
        if !entity.is_empty() {
            // Every special character is ASCII, so `i` and `i + 1` are on char boundaries.
            out.write_str(&s[plain..i])?;
            out.write_str(entity)?;
            plain = i + 1;
        }
    }
    out.write_str(&s[plain..])
}

/// What a `write_…` function writes, as a `String`. Writing into a `String` cannot fail (its
/// `fmt::Write` never errs, and [`Esc`] only passes its writer's result on), so the `expect` here,
/// the one place the dock says so, is never reached.
fn html_of(write: impl FnOnce(&mut String) -> fmt::Result) -> String {
    let mut html = String::new();
    write(&mut html).expect("a String takes every write");
    html
}

/// `s` escaped as [`write_escaped`] does, as a `Display` for `write!`.
#[derive(Clone, Copy)]
struct Esc<'a>(&'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, self.0)
    }
}

/// A name usable as an MCP server name in a client's command line (`crate::clients::entry_name`).
pub fn client_server_name(agent_name: &str) -> String {
    crate::clients::entry_name(agent_name)
}

/// The lines the CLI prints for an agent: Claude Code's command, and where the rest are.
pub fn connect_lines(agent: &Agent, url: &str) -> Vec<(&'static str, String)> {
    let target = crate::clients::Target::new(&agent.name, url, std::path::Path::new("apc-hub"));
    let claude = crate::clients::Client::ClaudeCode
        .command(&target, crate::places::Os::current())
        .unwrap_or_default();
    let agent_arg = if agent.name == crate::store::DEFAULT_AGENT {
        String::new()
    } else {
        format!(" --agent {:?}", agent.name)
    };
    vec![
        ("Claude Code", claude),
        (
            "Other clients (Claude Desktop, Cursor, VS Code, Windsurf, Codex, Gemini)",
            format!("apc-hub connect CLIENT{agent_arg} [--write]"),
        ),
    ]
}

/// Every client's ways of connecting to `agent`, as the dock shows them: the command, the install
/// link, and the entry for the client's own file.
fn write_connect(out: &mut String, agent: &Agent, url: &str) -> fmt::Result {
    let places = Places::from_env();
    let exe = crate::install::exe_for_clients(&places);
    let target = Target::new(&agent.name, url, &exe);
    for c in crate::clients::connections(&target, &places) {
        let name = Esc(c.client.name());
        write!(
            out,
            "<dt>{name}</dt><dd class=\"client\" data-client=\"{}\">",
            c.client.id()
        )?;
        if let Some(command) = &c.command {
            write!(out, "<p>Run: <code>{}</code></p>", Esc(command))?;
        }
        if let Some(link) = &c.link {
            write!(
                out,
                "<p><a class=\"install-link\" href=\"{}\">Add to {name}</a></p>",
                Esc(link)
            )?;
        }
        write!(
            out,
            "<p>Or add to <code>{}</code> (or run <code>apc-hub connect {} --write</code>):</p><pre><code class=\"snippet\">{}</code></pre></dd>",
            Esc(&c.file.display().to_string()),
            c.client.id(),
            Esc(&c.snippet)
        )?;
    }
    Ok(())
}

fn security_headers(response: &mut Response) {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // `same-origin`, not `no-referrer`: with `no-referrer` a browser sends `Origin: null` on the
    // page's own form posts (Revoke), which the dock must refuse. Other sites still get no referrer.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
}

/// The hue class (`hue-0` … `hue-11`, in the stylesheet) of an agent's mark.
fn hue_class(handle: &str) -> String {
    let h = handle
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(b as u32));
    format!("hue-{}", h % HUES)
}

/// One agent's pairings, as the dock shows them (and its live updates swap in).
fn write_pairings(out: &mut String, pairings: &[&DockPairing], csrf: &str) -> fmt::Result {
    if pairings.is_empty() {
        out.push_str(
            "<p class=\"no-pairings\">Not paired with any app yet: drag the mark onto a page.</p>",
        );
        return Ok(());
    }
    out.push_str("<table class=\"pairings\"><thead><tr><th scope=\"col\">App</th><th scope=\"col\">Pairing</th><th scope=\"col\">Pin</th><th scope=\"col\"><span class=\"visually-hidden\">Action</span></th></tr></thead><tbody>");
    for p in pairings {
        let id = Esc(&p.pairing.id);
        let active = p.pairing.status == PairingStatus::Active;
        let pin_state = match &p.pin {
            None => "none",
            Some(pin) if pin.seen_at.is_none() => "unread",
            Some(_) => "read",
        };
        write!(
            out,
            r#"<tr class="pairing" data-pairing="{id}" data-status="{st}" data-pin="{pin_state}"><td>{app} <small>({appid})</small></td><td>"#,
            st = if active { "active" } else { "revoked" },
            app = PAGE_APP_NAME,
            appid = Esc(&p.pairing.app),
        )?;
        match p.pairing.status {
            PairingStatus::Active => out.push_str("Active"),
            PairingStatus::Revoked => write!(
                out,
                "Revoked {}",
                Esc(p.pairing.revoked_at.as_deref().unwrap_or(""))
            )?,
        }
        out.push_str(r#"</td><td class="pin-state">"#);
        match &p.pin {
            None => out.push_str("No pin"),
            Some(pin) if pin.seen_at.is_none() => {
                write!(out, "Pinned {}, not read yet", Esc(&pin.pinned_at))?
            }
            Some(pin) => write!(out, "Pinned {}, read", Esc(&pin.pinned_at))?,
        }
        out.push_str("</td><td>");
        if active {
            write!(
                out,
                r#"<form method="post" action="/dock/revoke"><input type="hidden" name="csrf" value="{csrf}"><input type="hidden" name="pairing" value="{id}"><button type="submit" class="revoke" data-pairing="{id}">Revoke</button></form>"#,
                csrf = Esc(csrf),
            )?;
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table>");
    Ok(())
}

/// Every agent's pairings, by handle, from one query (agents without any get an empty list).
fn group_pairings(pairings: &[DockPairing]) -> HashMap<&str, Vec<&DockPairing>> {
    let mut by_agent: HashMap<&str, Vec<&DockPairing>> = HashMap::new();
    for p in pairings {
        by_agent
            .entry(p.pairing.agent.as_str())
            .or_default()
            .push(p);
    }
    by_agent
}

/// Every agent's pairings list, by handle, from one query.
fn pairings_by_agent(
    agents: &[Agent],
    pairings: &[DockPairing],
    csrf: &str,
) -> Vec<(String, String)> {
    let mut by_agent = group_pairings(pairings);
    agents
        .iter()
        .map(|a| {
            let list = by_agent.remove(a.handle.as_str()).unwrap_or_default();
            let html = html_of(|out| write_pairings(out, &list, csrf));
            (a.handle.clone(), html)
        })
        .collect()
}

/// `GET /`: the dock page. It mints no ticket: the page's script asks for one when the person
/// reaches for a mark (or asks for a new code).
pub async fn page(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> HubResult<Response> {
    let origin = request_origin(&headers, &hub);
    let version = *hub.dock_watch().borrow();
    let (agents, pairings) = hub
        .db
        .run(|s| Ok((s.agents()?, s.dock_pairings()?)))
        .await?;
    let html = html_of(|out| write_page(out, &agents, &pairings, &hub.csrf, version, &origin));
    let mut response = Html(html).into_response();
    security_headers(&mut response);
    Ok(response)
}

/// An agent's share of the page without pairings, about 1.1 KiB: what the page's `String` is sized
/// for, so that it grows at most once or twice.
const AGENT_HTML_BYTES: usize = 1536;

/// The dock page, written into one `String`.
fn write_page(
    out: &mut String,
    agents: &[Agent],
    pairings: &[DockPairing],
    csrf: &str,
    version: u64,
    origin: &str,
) -> fmt::Result {
    out.reserve(4096 + agents.len() * AGENT_HTML_BYTES);
    let (csrf, origin_html) = (Esc(csrf), Esc(origin));
    write!(
        out,
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="{csrf}">
<meta name="dock-version" content="{version}">
<meta name="apc-hub" content="{origin_html}">
<title>apc-hub: your agents</title>
<link rel="stylesheet" href="/dock.css">
<script src="/dock.js" defer></script>
</head>
<body>
<main>
<h1>Your agents</h1>
<p>Drag an agent's mark onto text on any web page (the APC browser extension must be installed) to point the agent at it. The first time, the extension asks you to allow the pairing. Keyboard: press "New code" and type the code in the extension's popup instead.</p>
<ul class="agents">
"#
    )?;
    let mut by_agent = group_pairings(pairings);
    for agent in agents {
        let handle = Esc(&agent.handle);
        let name = Esc(&agent.name);
        let initial: String = agent
            .name
            .chars()
            .next()
            .map(|c| c.to_uppercase().collect())
            .unwrap_or_default();
        write!(
            out,
            r#"<li class="agent" data-agent="{handle}">
<h2 class="agent-name">{name}</h2>
<button type="button" class="agent-mark {hue}" draggable="true" data-agent="{handle}" data-hub="{origin_html}" data-name="{name}" aria-describedby="how-{handle}"><span class="mark" aria-hidden="true">{initial}</span><span class="grip" aria-hidden="true">⠿</span> Drag {name} onto a page</button>
<p class="code" id="how-{handle}">Drag this mark onto text on a web page, or type a code in the extension's popup: <code class="ticket-code" id="code-{handle}" data-agent="{handle}">(none yet)</code> <button type="button" class="new-code" data-agent="{handle}">New code</button></p>
<details class="connect"><summary>Connect an MCP client to {name}</summary><p>MCP URL (keep it secret): <code class="mcp-url">{url}</code></p><dl class="clients" data-agent="{handle}"></dl></details>
<h3>Pairings</h3>
<div class="pairings-box" data-agent="{handle}">"#,
            hue = hue_class(&agent.handle),
            initial = Esc(&initial),
            url = Esc(&Hub::mcp_url(origin, &agent.secret)),
        )?;
        let list = by_agent.remove(agent.handle.as_str()).unwrap_or_default();
        write_pairings(out, &list, csrf.0)?;
        out.push_str("</div>\n</li>");
    }
    out.push_str(
        r#"
</ul>
<p id="status" role="status" aria-live="polite"></p>
</main>
</body>
</html>
"#,
    );
    Ok(())
}

/// `GET /dock/connect?agent=HANDLE` with `X-CSRF-Token` → `{ agent, html }`: how each MCP client
/// connects to the agent (its command, install link and file entry), as the dock shows them under
/// the agent's "Connect an MCP client". The page's script asks when the person opens them: with
/// many agents they would be most of the page.
pub async fn connect(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> HubResult<Response> {
    check_dock_read(&headers, &hub)?;
    let handle = query
        .get("agent")
        .cloned()
        .ok_or_else(|| HubError::BadRequest("Which agent? `agent` is missing.".into()))?;
    let agent = hub
        .db
        .run(move |s| s.agent_by_handle(&handle))
        .await?
        .ok_or_else(|| HubError::NotFound("This hub has no such agent.".into()))?;
    let url = Hub::mcp_url(&request_origin(&headers, &hub), &agent.secret);
    let html = html_of(|out| write_connect(out, &agent, &url));
    let mut response = Json(json!({ "agent": agent.handle, "html": html })).into_response();
    security_headers(&mut response);
    Ok(response)
}

/// How long `GET /dock/pairings` holds a request with nothing new.
const LIVE_WAIT: Duration = Duration::from_secs(20);

/// `GET /dock/pairings?since=N` with `X-CSRF-Token` → `{ version, agents: { handle: html } }`: each
/// agent's pairings list as the dock renders it, once something changed since version `N` (or after
/// 20 s). The dock page's script follows it, so pairings and pin states update live.
pub async fn live_pairings(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> HubResult<Response> {
    check_dock_read(&headers, &hub)?;
    let since: Option<u64> = query.get("since").and_then(|v| v.parse().ok());
    let mut changes = hub.dock_watch();
    let current = *changes.borrow_and_update();
    if since == Some(current) {
        let _ = tokio::time::timeout(LIVE_WAIT, changes.changed()).await;
    }
    let version = *changes.borrow_and_update();
    let (agents, pairings) = hub
        .db
        .run(|s| Ok((s.agents()?, s.dock_pairings()?)))
        .await?;
    let lists: serde_json::Map<String, serde_json::Value> =
        pairings_by_agent(&agents, &pairings, &hub.csrf)
            .into_iter()
            .map(|(h, html)| (h, serde_json::Value::String(html)))
            .collect();
    let mut response = Json(json!({ "version": version, "agents": lists })).into_response();
    security_headers(&mut response);
    Ok(response)
}

/// `GET /dock.js`.
pub async fn script() -> Response {
    let mut response = (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        DOCK_JS,
    )
        .into_response();
    security_headers(&mut response);
    response
}

/// `GET /dock.css`.
pub async fn style() -> Response {
    let mut response = (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        DOCK_CSS,
    )
        .into_response();
    security_headers(&mut response);
    response
}

/// A dock request's body, at most `DOCK_MAX_BODY` bytes.
async fn read_dock_body(body: Body) -> HubResult<Bytes> {
    axum::body::to_bytes(body, DOCK_MAX_BODY)
        .await
        .map_err(|_| {
            HubError::TooLarge(format!(
                "The dock takes requests of at most {DOCK_MAX_BODY} bytes."
            ))
        })
}

#[derive(Deserialize)]
struct TicketRequest {
    agent: String,
}

/// `POST /dock/tickets { agent }` from the dock page's own script (`Sec-Fetch-Site: same-origin`, a
/// same-origin `Origin`, `X-CSRF-Token`) → 201 `{ ticket, code, agent, hub, expires_in }`.
pub async fn mint_ticket(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Body,
) -> HubResult<Response> {
    check_dock_mint(&headers, &hub)?;
    let body = read_dock_body(body).await?;
    let req: TicketRequest = serde_json::from_slice(&body).map_err(|e| {
        HubError::BadRequest(format!("The request is not {{ \"agent\": handle }}: {e}."))
    })?;
    let agent = hub
        .db
        .run(move |s| s.agent_by_handle(&req.agent))
        .await?
        .ok_or_else(|| HubError::NotFound("This hub has no such agent.".into()))?;
    let ticket = hub.tickets.mint(&agent.handle);
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "ticket": ticket,
            "code": pairing_code_display(&ticket),
            "agent": agent.handle,
            "hub": request_origin(&headers, &hub),
            "expires_in": hub.tickets.ttl().as_secs(),
        })),
    )
        .into_response())
}

/// `POST /dock/revoke`: a form (`csrf`, `pairing`; answered with a redirect to the dock) or JSON
/// `{ pairing }` with `X-CSRF-Token` (answered `{ revoked: true }`). Holds at once: the pin and its
/// reading go, and the grant answers 403 `RevokedAnswer` from then on.
pub async fn revoke(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Body,
) -> HubResult<Response> {
    let body = read_dock_body(body).await?;
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let (pairing_id, form_token) = if is_json {
        let v: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|e| HubError::BadRequest(format!("The request is not JSON: {e}.")))?;
        (
            v.get("pairing").and_then(|p| p.as_str()).map(str::to_owned),
            None,
        )
    } else {
        let mut pairing = None;
        let mut csrf = None;
        for (k, v) in url::form_urlencoded::parse(&body) {
            match k.as_ref() {
                "pairing" => pairing = Some(v.into_owned()),
                "csrf" => csrf = Some(v.into_owned()),
                _ => {}
            }
        }
        (pairing, csrf)
    };
    check_dock_change(&headers, &hub, form_token.as_deref())?;
    let pairing_id = pairing_id
        .ok_or_else(|| HubError::BadRequest("Which pairing? `pairing` is missing.".into()))?;
    let pairing = hub
        .db
        .run(move |s| s.pairing(&pairing_id))
        .await?
        .ok_or_else(|| HubError::NotFound("This hub has no such pairing.".into()))?;
    if pairing.status == PairingStatus::Active {
        let id = pairing.id.clone();
        hub.db.run(move |s| s.revoke_pairing(&id, &now())).await?;
        hub.dock_changed();
    }
    if is_json {
        Ok(Json(json!({ "revoked": true, "pairing": pairing.id })).into_response())
    } else {
        Ok(Redirect::to("/").into_response())
    }
}

/// The dock page's script and stylesheet, files beside the crate's sources (`assets/`) so linters
/// and browser tests see them as they are served.
pub const DOCK_JS: &str = include_str!("../assets/dock.js");
pub const DOCK_CSS: &str = include_str!("../assets/dock.css");
/// The hue classes the stylesheet defines (`hue-0` … `hue-11`).
const HUES: u32 = 12;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clients::Client;

    #[test]
    fn the_drag_carries_the_standard_type_and_payload_keys() {
        assert!(DOCK_JS.contains(&format!(
            "const DRAG_MIME = \"{}\";",
            apc_core::APC_DRAG_MIME
        )));
        assert!(DOCK_JS.contains("event.dataTransfer.setData(DRAG_MIME, JSON.stringify(payload))"));
        assert!(DOCK_JS.contains("{ v: 1, agent: mark.dataset.agent, hub: mark.dataset.hub, ticket: mark.dataset.ticket }"));
    }

    #[test]
    fn every_hue_class_is_in_the_stylesheet() {
        for n in 0..HUES {
            assert!(DOCK_CSS.contains(&format!(".hue-{n} {{ --hue:")), "hue-{n}");
        }
        assert!(!DOCK_CSS.contains(&format!(".hue-{HUES} ")));
        let classes: std::collections::HashSet<String> = (0..500)
            .map(|i| hue_class(&format!("ag_{i:016x}")))
            .collect();
        assert_eq!(classes.len(), HUES as usize);
    }

    fn agent(handle: &str, name: &str, secret: &str) -> Agent {
        Agent {
            handle: handle.into(),
            name: name.into(),
            secret: secret.into(),
            created_at: "2026-01-01T00:00:00.000Z".into(),
        }
    }

    fn pairing(id: &str, agent: &str, status: PairingStatus, pin: Option<&str>) -> DockPairing {
        DockPairing {
            pairing: crate::store::PairingRow {
                id: id.into(),
                agent: agent.into(),
                app: "page<&>".into(),
                status,
                created_at: "2026-01-01T00:00:00.000Z".into(),
                revoked_at: (status == PairingStatus::Revoked).then(|| "2026-01-02<x>".into()),
            },
            pin: pin.map(|seen| crate::store::PinRow {
                pairing_id: id.into(),
                reading_id: "rd_1".into(),
                app_url: "https://example.com".into(),
                pinned_at: "2026-01-03\"t".into(),
                seen_at: (seen == "read").then(|| "2026-01-04".into()),
            }),
        }
    }

    #[test]
    fn the_page_shows_each_agent_with_its_own_url_and_pairings_every_string_escaped() {
        let agents = [
            agent("ag_1", "<script>alert('x')</script>", "secret1"),
            agent("ag_2", "Bob & \"Co\"", "secret2"),
            agent("ag_3", "ünïcode", "secret3"),
        ];
        let pairings = [
            pairing("pr_a", "ag_1", PairingStatus::Active, None),
            pairing("pr_b", "ag_1", PairingStatus::Revoked, Some("unread")),
            pairing("pr_c", "ag_2", PairingStatus::Active, Some("read")),
        ];
        let origin = "http://127.0.0.1:7410";
        let mut html = String::new();
        write_page(&mut html, &agents, &pairings, "tok\"en", 7, origin).unwrap();
        assert!(!html.contains("<script>alert"), "{html}");
        assert!(html.contains(
            "<h2 class=\"agent-name\">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</h2>"
        ));
        assert!(html.contains("<h2 class=\"agent-name\">Bob &amp; &quot;Co&quot;</h2>"));
        assert!(html.contains("<span class=\"mark\" aria-hidden=\"true\">Ü</span>"));
        assert!(html.contains("<meta name=\"csrf-token\" content=\"tok&quot;en\">"));
        assert!(html.contains("<meta name=\"dock-version\" content=\"7\">"));
        assert_eq!(html.matches("<li class=\"agent\"").count(), 3);
        assert_eq!(html.matches("draggable=\"true\"").count(), 3);
        // Each agent's entry holds its own MCP URL, and the list its clients' instructions come into
        // (`GET /dock/connect`, when the person opens them).
        let entries: Vec<&str> = html.split("<li class=\"agent\"").skip(1).collect();
        for (entry, a) in entries.iter().zip(&agents) {
            let url = format!("{origin}/mcp/{}", a.secret);
            assert!(entry.starts_with(&format!(" data-agent=\"{}\">", a.handle)));
            assert!(entry.contains("<details class=\"connect\"><summary>Connect an MCP client to "));
            assert!(entry.contains(&format!(
                "<p>MCP URL (keep it secret): <code class=\"mcp-url\">{url}</code></p><dl class=\"clients\" data-agent=\"{}\"></dl></details>",
                a.handle
            )));
            for other in agents.iter().filter(|o| o.handle != a.handle) {
                assert!(!entry.contains(&other.secret), "{entry}");
            }
        }
        assert!(!html.contains("data-client"));
        // Pairings and their states, with Revoke only on the active ones.
        let one = entries[0];
        assert!(one.contains(r#"<tr class="pairing" data-pairing="pr_a" data-status="active" data-pin="none"><td>Web page <small>(page&lt;&amp;&gt;)</small></td><td>Active</td><td class="pin-state">No pin</td><td><form method="post" action="/dock/revoke"><input type="hidden" name="csrf" value="tok&quot;en"><input type="hidden" name="pairing" value="pr_a"><button type="submit" class="revoke" data-pairing="pr_a">Revoke</button></form></td></tr>"#), "{one}");
        assert!(one.contains(r#"<tr class="pairing" data-pairing="pr_b" data-status="revoked" data-pin="unread"><td>Web page <small>(page&lt;&amp;&gt;)</small></td><td>Revoked 2026-01-02&lt;x&gt;</td><td class="pin-state">Pinned 2026-01-03&quot;t, not read yet</td><td></td></tr>"#), "{one}");
        assert!(entries[1].contains(r#"data-pairing="pr_c" data-status="active" data-pin="read""#));
        assert!(entries[1].contains("Pinned 2026-01-03&quot;t, read</td>"));
        assert!(entries[2].contains("<p class=\"no-pairings\">"));
        // The live list is the same HTML as the page's.
        for (handle, list) in pairings_by_agent(&agents, &pairings, "tok\"en") {
            let entry = entries[agents.iter().position(|a| a.handle == handle).unwrap()];
            assert!(entry.contains(&format!(
                "<div class=\"pairings-box\" data-agent=\"{handle}\">{list}</div>"
            )));
        }
    }

    #[test]
    fn an_agents_connect_instructions_name_its_own_url_with_every_string_escaped() {
        let a = agent("ag_1", "<b>Ann's</b> & \"co\"", "secret1");
        let url = "http://127.0.0.1:7410/mcp/secret1";
        let mut html = String::new();
        write_connect(&mut html, &a, url).unwrap();
        assert!(!html.contains("<b>") && !html.contains("Ann's"), "{html}");
        for client in Client::ALL {
            let at = html
                .find(&format!(
                    "<dd class=\"client\" data-client=\"{}\">",
                    client.id()
                ))
                .unwrap_or_else(|| panic!("{client:?} is missing"));
            let entry = &html[at..at + html[at..].find("</dd>").unwrap()];
            assert!(html[..at].ends_with(&format!("<dt>{}</dt>", client.name())));
            assert!(entry.contains("<pre><code class=\"snippet\">"), "{entry}");
            if client.uses_stdio() {
                // The agent's name itself, escaped, in `apc-hub mcp --agent NAME`.
                assert!(
                    entry.contains("&lt;b&gt;Ann&#39;s&lt;/b&gt; &amp; \\&quot;co\\&quot;"),
                    "{entry}"
                );
            } else {
                assert!(entry.contains(url), "{client:?}: {entry}");
            }
        }
        let entry_name = client_server_name(&a.name);
        assert_eq!(entry_name, "apc-b-ann-s--b-----co");
        assert!(
            html.contains(&format!("--transport http {entry_name} {url}</code>")),
            "{html}"
        );
    }

    #[test]
    fn names_are_escaped_and_slugged() {
        assert_eq!(
            Esc("<a href=\"x\">&'").to_string(),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(client_server_name("My Agent.2"), "apc-my-agent-2");
    }
}
