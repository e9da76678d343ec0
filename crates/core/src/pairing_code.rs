//! The pairing code: a hub's ticket as a person reads and types it (the dock shows it under "New
//! code"; the extension's popup takes it). One grammar, used by the extension to read what the person
//! typed and by a hub to show and read its tickets.
//!
//! A ticket is [`PAIRING_CODE_LEN`] characters of Crockford base32 (`0-9 A-Z` without `I L O U`). As
//! typed, case, spaces and dashes do not matter, and the letters Crockford reads as digits are read
//! that way (`O` as `0`, `I` and `L` as `1`). Shown, it is four groups of five joined by dashes.

/// The alphabet of a ticket: Crockford's base32.
pub const PAIRING_CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters of a ticket.
pub const PAIRING_CODE_LEN: usize = 20;
/// The most bytes of typed input read at all (a longer input is no code).
pub const PAIRING_CODE_INPUT_MAX: usize = 64;

/// Why typed text is not a pairing code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PairingCodeError {
    #[error("type the code the hub's page shows")]
    Empty,
    #[error(
        "that is not a pairing code: a code is 20 letters and digits, like ABCDE-FGHJK-MNPQR-STVWX"
    )]
    Malformed,
}

/// What a person typed, back to the ticket it stands for.
pub fn normalize_pairing_code(typed: &str) -> Result<String, PairingCodeError> {
    if typed.len() > PAIRING_CODE_INPUT_MAX {
        return Err(PairingCodeError::Malformed);
    }
    let mut out = String::with_capacity(PAIRING_CODE_LEN);
    for c in typed.chars() {
        let c = match c.to_ascii_uppercase() {
            '-' => continue,
            c if c.is_whitespace() => continue,
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        if !c.is_ascii() || !PAIRING_CODE_ALPHABET.contains(&(c as u8)) {
            return Err(PairingCodeError::Malformed);
        }
        out.push(c);
    }
    match out.len() {
        0 => Err(PairingCodeError::Empty),
        PAIRING_CODE_LEN => Ok(out),
        _ => Err(PairingCodeError::Malformed),
    }
}

/// A ticket as a person reads it: `ABCDE-FGHJK-MNPQR-STVWX`.
pub fn pairing_code_display(ticket: &str) -> String {
    ticket
        .as_bytes()
        .chunks(5)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "0123456789ABCDEFGHJK";

    #[test]
    fn a_code_round_trips_through_its_display() {
        let shown = pairing_code_display(T);
        assert_eq!(shown, "01234-56789-ABCDE-FGHJK");
        assert_eq!(normalize_pairing_code(&shown).as_deref(), Ok(T));
        assert_eq!(
            normalize_pairing_code(" 01234 56789\tabcde-fghjk ").as_deref(),
            Ok(T)
        );
    }

    #[test]
    fn lookalike_letters_read_as_digits() {
        assert_eq!(
            normalize_pairing_code("O1234-56789-ABCDE-FGHJK").as_deref(),
            Ok(T)
        );
        assert_eq!(
            normalize_pairing_code("0I234-56789-ABCDE-FGHJK").as_deref(),
            Ok(T)
        );
        assert_eq!(
            normalize_pairing_code("0l234-56789-abcde-fghjk").as_deref(),
            Ok(T)
        );
    }

    #[test]
    fn what_is_no_code_is_refused() {
        assert_eq!(normalize_pairing_code("  - "), Err(PairingCodeError::Empty));
        for bad in [
            "0123456789ABCDEFGHJ",   // 19
            "0123456789ABCDEFGHJKM", // 21
            "0123456789ABCDEFGHJU",  // U is not in the alphabet
            "0123456789ABCDEFGH/K",
            "0123456789ABCDEFGHJÄ",
            "https://hub.example/pair?ticket=x",
        ] {
            assert_eq!(
                normalize_pairing_code(bad),
                Err(PairingCodeError::Malformed),
                "{bad}"
            );
        }
        assert_eq!(
            normalize_pairing_code(&"0".repeat(65)),
            Err(PairingCodeError::Malformed)
        );
    }
}
