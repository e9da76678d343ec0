//! The dock page at `/`: each agent with its mark, draggable with the `application/x-apc-agent`
//! payload `{ v: 1, agent, hub, ticket }`, the same ticket as a code to type into the extension's
//! popup, how to connect an MCP client, and the agent's pairings with their pin state and Revoke.
//!
//! Plain server-rendered HTML; the script (`/dock.js`) only sets the drag payload and mints the next
//! ticket. State changes (`POST /dock/tickets`, `POST /dock/revoke`) need the same origin and the
//! page's CSRF token. The page may not be framed.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::error::{HubError, HubResult};
use crate::focus::PAGE_APP_NAME;
use crate::secrets::ticket_code;
use crate::security::{check_dock_change, request_origin};
use crate::state::{now, Hub};
use crate::store::{Agent, PairingStatus};

const DOCK_MAX_BODY: usize = 4096;

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A name usable as an MCP server name in a client's command line: `apc-` and the agent's name.
pub fn client_server_name(agent_name: &str) -> String {
    let slug: String = agent_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("apc-{}", slug.trim_matches('-'))
}

/// The ready-to-paste lines that connect common MCP clients to an agent's URL.
pub fn connect_lines(agent: &Agent, url: &str) -> Vec<(&'static str, String)> {
    let name = client_server_name(&agent.name);
    vec![
        (
            "Claude Code",
            format!("claude mcp add --transport http {name} {url}"),
        ),
        (
            "Cursor (.cursor/mcp.json)",
            format!("{{ \"mcpServers\": {{ \"{name}\": {{ \"url\": \"{url}\" }} }} }}"),
        ),
    ]
}

fn hue(handle: &str) -> u32 {
    handle
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(b as u32))
        % 360
}

fn security_headers(response: &mut Response) {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
}

/// `GET /`: the dock page.
pub async fn page(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> HubResult<Response> {
    let origin = request_origin(&headers, &hub);
    let mut agents_html = String::new();
    for agent in hub.store.agents()? {
        let ticket = hub.tickets.mint(&agent.handle);
        let handle = escape(&agent.handle);
        let name = escape(&agent.name);
        let initial = escape(
            &agent
                .name
                .chars()
                .next()
                .map(|c| c.to_uppercase().to_string())
                .unwrap_or_default(),
        );
        let url = Hub::mcp_url(&origin, &agent.secret);
        let connect: String = connect_lines(&agent, &url)
            .into_iter()
            .map(|(client, line)| {
                format!(
                    "<dt>{}</dt><dd><code>{}</code></dd>",
                    escape(client),
                    escape(&line)
                )
            })
            .collect();
        let mut rows = String::new();
        for p in hub.store.dock_pairings(&agent.handle)? {
            let (status, revoke) = match p.pairing.status {
                PairingStatus::Active => (
                    "Active".to_owned(),
                    format!(
                        r#"<form method="post" action="/dock/revoke"><input type="hidden" name="csrf" value="{csrf}"><input type="hidden" name="pairing" value="{id}"><button type="submit" class="revoke" data-pairing="{id}">Revoke</button></form>"#,
                        csrf = escape(&hub.csrf),
                        id = escape(&p.pairing.id)
                    ),
                ),
                PairingStatus::Revoked => (
                    format!(
                        "Revoked {}",
                        escape(p.pairing.revoked_at.as_deref().unwrap_or(""))
                    ),
                    String::new(),
                ),
            };
            let pin = match &p.pin {
                None => "No pin".to_owned(),
                Some(pin) if pin.seen_at.is_none() => {
                    format!("Pinned {}, not read yet", escape(&pin.pinned_at))
                }
                Some(pin) => format!("Pinned {}, read", escape(&pin.pinned_at)),
            };
            let pin_state = match &p.pin {
                None => "none",
                Some(pin) if pin.seen_at.is_none() => "unread",
                Some(_) => "read",
            };
            rows.push_str(&format!(
                r#"<tr class="pairing" data-pairing="{id}" data-status="{st}" data-pin="{pin_state}"><td>{app} <small>({appid})</small></td><td>{status}</td><td class="pin-state">{pin}</td><td>{revoke}</td></tr>"#,
                id = escape(&p.pairing.id),
                st = if p.pairing.status == PairingStatus::Active { "active" } else { "revoked" },
                app = PAGE_APP_NAME,
                appid = escape(&p.pairing.app),
            ));
        }
        let pairings = if rows.is_empty() {
            "<p class=\"no-pairings\">Not paired with any app yet: drag the mark onto a page.</p>"
                .to_owned()
        } else {
            format!("<table class=\"pairings\"><thead><tr><th scope=\"col\">App</th><th scope=\"col\">Pairing</th><th scope=\"col\">Pin</th><th scope=\"col\"><span class=\"visually-hidden\">Action</span></th></tr></thead><tbody>{rows}</tbody></table>")
        };
        agents_html.push_str(&format!(
            r#"<li class="agent" data-agent="{handle}">
<h2 class="agent-name">{name}</h2>
<button type="button" class="agent-mark" draggable="true" data-agent="{handle}" data-ticket="{ticket}" data-hub="{origin}" data-name="{name}" aria-describedby="code-{handle}" style="--hue: {hue}"><span class="mark" aria-hidden="true">{initial}</span> Drag {name} onto a page</button>
<p class="code">Or type this code in the extension's popup: <code class="ticket-code" id="code-{handle}" data-agent="{handle}">{code}</code> <button type="button" class="new-code" data-agent="{handle}">New code</button></p>
<details><summary>Connect an MCP client to {name}</summary><p>MCP URL (keep it secret): <code class="mcp-url">{url}</code></p><dl>{connect}</dl></details>
<h3>Pairings</h3>
{pairings}
</li>"#,
            origin = escape(&origin),
            ticket = escape(&ticket),
            code = escape(&ticket_code(&ticket)),
            url = escape(&url),
            hue = hue(&agent.handle),
        ));
    }
    let html = format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="{csrf}">
<meta name="apc-hub" content="{origin}">
<title>apc-hub: your agents</title>
<link rel="stylesheet" href="/dock.css">
<script src="/dock.js" defer></script>
</head>
<body>
<main>
<h1>Your agents</h1>
<p>Drag an agent's mark onto text on any web page (the APC browser extension must be installed) to point the agent at it. The first time, the extension asks you to allow the pairing. Keyboard: type the agent's code in the extension's popup instead.</p>
<ul class="agents">
{agents_html}
</ul>
<p id="status" role="status" aria-live="polite"></p>
</main>
</body>
</html>
"#,
        csrf = escape(&hub.csrf),
        origin = escape(&origin),
    );
    let mut response = Html(html).into_response();
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

#[derive(Deserialize)]
struct TicketRequest {
    agent: String,
}

/// `POST /dock/tickets { agent }` with `X-CSRF-Token` → 201 `{ ticket, code, agent, hub, expires_in }`.
pub async fn mint_ticket(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Bytes,
) -> HubResult<Response> {
    check_dock_change(&headers, &hub, None)?;
    if body.len() > DOCK_MAX_BODY {
        return Err(HubError::BadRequest("The request is too large.".into()));
    }
    let req: TicketRequest = serde_json::from_slice(&body).map_err(|e| {
        HubError::BadRequest(format!("The request is not {{ \"agent\": handle }}: {e}."))
    })?;
    let agent = hub
        .store
        .agent_by_handle(&req.agent)?
        .ok_or_else(|| HubError::NotFound("This hub has no such agent.".into()))?;
    let ticket = hub.tickets.mint(&agent.handle);
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "ticket": ticket,
            "code": ticket_code(&ticket),
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
    body: Bytes,
) -> HubResult<Response> {
    if body.len() > DOCK_MAX_BODY {
        return Err(HubError::BadRequest("The request is too large.".into()));
    }
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
        .store
        .pairing(&pairing_id)?
        .ok_or_else(|| HubError::NotFound("This hub has no such pairing.".into()))?;
    if pairing.status == PairingStatus::Active {
        hub.store.revoke_pairing(&pairing.id, &now())?;
    }
    if is_json {
        Ok(Json(json!({ "revoked": true, "pairing": pairing.id })).into_response())
    } else {
        Ok(Redirect::to("/").into_response())
    }
}

const DOCK_JS: &str = r#"// Why JS: a drag's payload can only be set in `dragstart`, and the next ticket is fetched after it.
// Everything else on the dock page is server-rendered HTML and plain forms.
"use strict";
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const status = () => document.getElementById("status");

async function freshTicket(agent) {
  const res = await fetch("/dock/tickets", {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrf-token": csrf },
    body: JSON.stringify({ agent }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.message || `The hub answered ${res.status}.`);
  for (const el of document.querySelectorAll(".agent-mark, .ticket-code")) {
    if (el.dataset.agent !== agent) continue;
    if (el.classList.contains("agent-mark")) el.dataset.ticket = body.ticket;
    else el.textContent = body.code;
  }
  return body;
}

document.addEventListener("dragstart", (event) => {
  const mark = event.target instanceof Element ? event.target.closest(".agent-mark") : null;
  if (!mark) return;
  const payload = { v: 1, agent: mark.dataset.agent, hub: mark.dataset.hub, ticket: mark.dataset.ticket };
  event.dataTransfer.setData("application/x-apc-agent", JSON.stringify(payload));
  event.dataTransfer.effectAllowed = "copy";
  // The ticket just set travels with this drag: the next drag gets a new one.
  freshTicket(mark.dataset.agent).catch((e) => { status().textContent = e.message; });
});

document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest(".new-code") : null;
  if (!button) return;
  freshTicket(button.dataset.agent)
    .then(() => { status().textContent = "New code ready."; })
    .catch((e) => { status().textContent = e.message; });
});
"#;

const DOCK_CSS: &str = r#"
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.4; }
main { max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
.agents { list-style: none; padding: 0; }
.agent { border: 1px solid #8886; border-radius: .75rem; padding: 1rem; margin: 1rem 0; }
.agent-name { margin: 0 0 .5rem; font-size: 1.25rem; }
.agent-mark { display: inline-flex; align-items: center; gap: .6rem; font: inherit; padding: .5rem .9rem; border-radius: 2rem; border: 2px solid hsl(var(--hue) 60% 45%); background: hsl(var(--hue) 70% 92%); color: #111; cursor: grab; }
.agent-mark:focus-visible, button:focus-visible, summary:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
.mark { display: inline-grid; place-items: center; width: 2rem; height: 2rem; border-radius: 50%; background: hsl(var(--hue) 60% 45%); color: white; font-weight: 700; }
.ticket-code { font-size: 1.1rem; letter-spacing: .05em; }
.pairings { border-collapse: collapse; width: 100%; }
.pairings th, .pairings td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #8884; }
.revoke { color: #b00020; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
code { overflow-wrap: anywhere; }
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drag_carries_the_standard_type_and_payload_keys() {
        assert!(DOCK_JS.contains(&format!("setData(\"{}\"", apc_core::APC_DRAG_MIME)));
        assert!(DOCK_JS.contains("{ v: 1, agent: mark.dataset.agent, hub: mark.dataset.hub, ticket: mark.dataset.ticket }"));
    }

    #[test]
    fn names_are_escaped_and_slugged() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(client_server_name("My Agent.2"), "apc-my-agent-2");
    }
}
