//! Revoke and its give back. Revoke starts with the person's click in the popup and holds at once
//! in the extension, whatever the hub; the grant is then given back to the hub
//! ([`retry_give_backs`]), now and on the alarm with backoff until the hub answers or the tries
//! stop. It ends with the give back done, still pending (the popup says so), or dismissed by the
//! person after it stopped.

use super::outcome::{Flow, FlowError, GiveBackOutcome, Revoked};
use super::shared::{now, show_toolbar};
use crate::logic::hub_api;
use crate::logic::ports::{Clock, Env, GrantVault, Store};
use crate::logic::state::TryBy;

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
