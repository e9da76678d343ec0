//! The small steps many flows take: now as the wire writes times, and the toolbar shown as the
//! pairings' state says.

use crate::logic::ports::{Clock, Env, PageUi};
use crate::logic::state::State;
use crate::logic::time::iso;
use crate::logic::views::ToolbarView;

/// Now, as the wire writes times.
pub(super) fn now<E: Env>(env: &E) -> String {
    iso(env.clock().now_ms())
}

/// The toolbar (badge, menus, alarms) as the state says.
pub(super) async fn show_toolbar<E: Env>(env: &E, state: &State) {
    env.ui().show_toolbar(&ToolbarView::of(state)).await;
}
