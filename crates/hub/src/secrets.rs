//! Random identifiers and secrets, their hashes, and constant-time comparison.
//!
//! Every secret the hub hands out (an agent's MCP URL secret, a grant) has at least 128 random bits;
//! a ticket has 100. The hub keeps only the SHA-256 of a grant and compares it in constant time.

use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Crockford's base32: no I, L, O or U, so a ticket typed by hand is hard to get wrong.
const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    rand::rng().fill_bytes(&mut bytes);
    bytes
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A secret for a URL or a bearer token: 256 random bits, base64url without padding.
pub fn new_secret() -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>())
}

/// A public agent handle (unique, not secret): `ag_` and 64 random bits.
pub fn new_handle() -> String {
    format!("ag_{}", hex(&random_bytes::<8>()))
}

/// A pairing id (not secret): `pr_` and 64 random bits.
pub fn new_pairing_id() -> String {
    format!("pr_{}", hex(&random_bytes::<8>()))
}

/// A reading id: `rd_` and 128 random bits.
pub fn new_reading_id() -> String {
    format!(
        "{}{}",
        apc_core::page_link::READING_ID_PREFIX,
        hex(&random_bytes::<16>())
    )
}

/// A ticket: 20 Crockford base32 characters, 100 random bits.
pub fn new_ticket() -> String {
    let bytes = random_bytes::<20>();
    bytes
        .iter()
        .map(|b| CROCKFORD[(b & 31) as usize] as char)
        .collect()
}

/// The ticket as a person types it: four groups of five, `ABCDE-FGHJK-MNPQR-STVWX`.
pub fn ticket_code(ticket: &str) -> String {
    ticket
        .as_bytes()
        .chunks(5)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("-")
}

/// A ticket or its typed code, back to the ticket: case, dashes and spaces do not matter, and the
/// letters Crockford reads as digits (O as 0, I and L as 1) are read that way. `None` when it cannot be
/// a ticket at all.
pub fn normalize_ticket(raw: &str) -> Option<String> {
    if raw.len() > 64 {
        return None;
    }
    let mut out = String::with_capacity(20);
    for c in raw.chars() {
        let c = match c.to_ascii_uppercase() {
            '-' | ' ' => continue,
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        if !CROCKFORD.contains(&(c as u8)) || !c.is_ascii() {
            return None;
        }
        out.push(c);
    }
    (out.len() == 20).then_some(out)
}

/// SHA-256 of a secret, as the hub stores it.
pub fn hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Whether two byte strings are equal, in time that does not depend on where they differ.
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tickets_round_trip_through_their_typed_code() {
        let t = new_ticket();
        assert_eq!(t.len(), 20);
        let code = ticket_code(&t);
        assert_eq!(code.len(), 23);
        assert_eq!(
            normalize_ticket(&code.to_lowercase()).as_deref(),
            Some(t.as_str())
        );
        assert_eq!(
            normalize_ticket("oooo0-iiiil-00000-00000").unwrap(),
            "00000111110000000000"
        );
        assert!(normalize_ticket("short").is_none());
        assert!(normalize_ticket("UUUUU-UUUUU-UUUUU-UUUUU").is_none());
        assert!(normalize_ticket("ÄBCDE-FGHJK-MNPQR-STVWX").is_none());
    }

    #[test]
    fn secrets_are_long_and_distinct() {
        let (a, b) = (new_secret(), new_secret());
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        assert!(new_reading_id().starts_with("rd_"));
        assert_eq!(new_reading_id().len(), 35);
        assert!(ct_eq(&hash(&a), &hash(&a)));
        assert!(!ct_eq(&hash(&a), &hash(&b)));
        assert!(!ct_eq(b"ab", b"abc"));
    }
}
