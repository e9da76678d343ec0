//! Random identifiers and secrets, their hashes, and constant-time comparison.
//!
//! Every secret the hub hands out (an agent's MCP URL secret, a grant) has at least 128 random bits;
//! a ticket has 100. The hub keeps only the SHA-256 of a grant and compares it in constant time.

use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use apc_core::pairing_code::{PAIRING_CODE_ALPHABET, PAIRING_CODE_LEN};

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

/// A ticket: [`PAIRING_CODE_LEN`] characters of Crockford base32 (core's pairing-code alphabet),
/// 100 random bits.
pub fn new_ticket() -> String {
    let bytes = random_bytes::<PAIRING_CODE_LEN>();
    bytes
        .iter()
        .map(|b| PAIRING_CODE_ALPHABET[(b & 31) as usize] as char)
        .collect()
}

/// A ticket or its typed code, back to the ticket, by core's one grammar
/// ([`apc_core::pairing_code::normalize_pairing_code`], the same the extension's popup reads a typed
/// code with). `None` when it cannot be a ticket at all.
pub fn normalize_ticket(raw: &str) -> Option<String> {
    apc_core::pairing_code::normalize_pairing_code(raw).ok()
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
        let code = apc_core::pairing_code::pairing_code_display(&t);
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
        assert!(normalize_ticket("").is_none());
        assert!(normalize_ticket(&"0".repeat(65)).is_none());
    }

    /// The hub reads a code by the grammar the extension reads it by (core's): a code pasted with a
    /// tab or a line break, as copying from the dock page can give, is the same ticket on both sides.
    /// The hub's own parser once took only spaces and dashes, so the popup accepted codes the hub
    /// then called unknown.
    #[test]
    fn the_hub_reads_every_code_the_extension_accepts() {
        let t = new_ticket();
        let code = apc_core::pairing_code::pairing_code_display(&t);
        for typed in [
            code.clone(),
            code.to_lowercase(),
            code.replace('-', "\t"),
            format!(" {}\n", code.replace('-', " ")),
            t.clone(),
        ] {
            let extension = apc_core::pairing_code::normalize_pairing_code(&typed).ok();
            assert_eq!(extension.as_deref(), Some(t.as_str()), "{typed:?}");
            assert_eq!(normalize_ticket(&typed), extension, "{typed:?}");
        }
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
