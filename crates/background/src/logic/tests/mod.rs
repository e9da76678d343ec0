//! Native tests of every flow, with in-memory fakes of the ports ([`fakes`]): the fake hub speaks
//! the page app link as `docs/page-app-link.md` says (tickets single-use and per agent, grants,
//! revokes), so these tests prove the extension's side of the contract, not a stub's.

pub mod fakes;
mod flows;
mod frames;
mod invariants;
