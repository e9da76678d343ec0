//! The hubs' status and the popup's view. It starts with the pin-status alarm (every 30 s while a
//! pin is unread), the popup opening, or the background starting; each hub is asked once how its
//! pairing's pin stands, and it ends with each record's hub state and pin updated and the toolbar
//! (badge, menus) shown anew.

use apc_core::web_origin;

use super::outcome::Flow;
use super::pin::note_hub_error;
use super::revoke::retry_give_backs;
use super::shared::{now, show_toolbar};
use crate::logic::hub_api;
use crate::logic::ports::{Env, GrantVault, PageUi, Store};
use crate::logic::state::{HubState, PairingRecord, TryBy};
use crate::logic::views::PopupView;

/// Asks each hub how its pairing's pin stands (all hubs at once: a hub that is down costs its time
/// limit once, not once per pairing).
pub async fn refresh_status<E: Env>(env: &E) -> Flow<()> {
    let state = env.store().load().await?;
    let live: Vec<&PairingRecord> = state.live_pairings().collect();
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
