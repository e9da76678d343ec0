//! Every answer a hub (or the wire) can send, read into the core's page-link types: never a panic;
//! what is read writes back and reads again as the same value.
#![no_main]
use apc_core::page_link::{
    ErrorBody, GrantStatus, PageEndpoints, PageReading, PairRequest, PairResponse, Pairing,
    PinRequest, PinResponse, PinState, TicketPreview,
};
use apc_core::types::{FocusPayload, FocusTarget};
use libfuzzer_sys::fuzz_target;
use serde::{de::DeserializeOwned, Serialize};

fn round_trip<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(data: &[u8]) {
    if let Ok(v) = serde_json::from_slice::<T>(data) {
        let text = serde_json::to_string(&v).expect("what was read writes back");
        let again: T = serde_json::from_str(&text).expect("and reads again");
        assert_eq!(again, v);
    }
}

fuzz_target!(|data: &[u8]| {
    round_trip::<PairResponse>(data);
    round_trip::<PinResponse>(data);
    round_trip::<PinState>(data);
    round_trip::<GrantStatus>(data);
    round_trip::<ErrorBody>(data);
    round_trip::<TicketPreview>(data);
    round_trip::<Pairing>(data);
    round_trip::<PageEndpoints>(data);
    round_trip::<PageReading>(data);
    round_trip::<PairRequest>(data);
    round_trip::<PinRequest>(data);
    round_trip::<FocusPayload>(data);
    round_trip::<FocusTarget>(data);
});
