//! Form fields: the value of a `textarea` or text `input` the person pointed at is the pointed
//! text, read from the field (`Observation::field`) rather than from the page's rendered text.
//!
//! Rules (each has a unit test in `tests.rs`, named after it):
//! - F1 a field's value is never page text (R1 hides `textarea`'s children, an `input` has none,
//!   and the collector reads no value but the pointed field's): it is read only where the person
//!   pointed, the focused field's selection or the field under a drop, and the reading says so
//!   (`pointed.field`: `textarea` or `input`).
//! - F2 never a secret: a `password` field; a field whose `autocomplete` names a secret
//!   (`current-password`, `new-password`, `one-time-code`, `cc-number`, `cc-csc`, `cc-exp`, …);
//!   text masked by CSS (`-webkit-text-security`); a field with `autocomplete="off"` whose type
//!   (`tel`, `number`) or whose name or id (a word such as `pin`, `otp`, `code`, `cvv`,
//!   `password`, `secret`, `token`) looks like one. Such a field is refused (`field_secret`),
//!   whatever was selected in it.
//! - F3 the pointed text: a selection is exactly the selected part of the value; a drop is the
//!   whole value with the line breaks at its ends removed (P3 then cuts it around the caret when
//!   it is over its cap). Control characters other than tab and newline are dropped.

use apc_core::page_link::{How, PointedField};

use crate::observation::{Field, Tree};
use crate::ContentError;

/// `autocomplete` tokens that name a secret (HTML's autofill field names).
const SECRET_AUTOCOMPLETE: &[&str] = &[
    "current-password",
    "new-password",
    "one-time-code",
    "cc-number",
    "cc-csc",
    "cc-exp",
    "cc-exp-month",
    "cc-exp-year",
];

/// Words of a field's name or id that, with `autocomplete="off"`, say it holds a secret.
const SECRET_WORDS: &[&str] = &[
    "pin", "otp", "totp", "code", "passcode", "password", "passwd", "pwd", "pass", "secret",
    "token", "cvv", "cvc", "csc", "ssn", "mfa", "2fa", "tan",
];

/// A pointed field's text (F3) and where the drop's caret is in it.
pub(crate) struct FieldText {
    pub text: String,
    /// Byte offset in `text` of the drop's caret (a selection: 0).
    pub caret: usize,
    pub kind: PointedField,
    /// The collector kept only part of the value.
    pub cut: bool,
}

/// F1–F3: the pointed text of a field, or why there is none.
pub(crate) fn field_text(tree: &Tree<'_>, f: &Field, how: How) -> Result<FieldText, ContentError> {
    let element = tree.node(f.node as usize);
    if is_secret(f, element.attr("id")) {
        return Err(ContentError::SecretField);
    }
    let kind = if element.tag() == "textarea" {
        PointedField::Textarea
    } else {
        PointedField::Input
    };
    let start = byte_at(&f.value, f.start as usize);
    let end = byte_at(&f.value, f.end as usize);
    let (raw, caret) = match how {
        How::Drop => (f.value.as_str(), start),
        How::Selection | How::Command => (f.value.get(start..end).unwrap_or(""), 0),
    };
    let mut text = String::with_capacity(raw.len());
    let mut caret_at = 0;
    for (i, c) in raw.char_indices() {
        if i == caret {
            caret_at = text.len();
        }
        if !(c.is_control() && c != '\n' && c != '\t') {
            text.push(c);
        }
    }
    if caret >= raw.len() {
        caret_at = text.len();
    }
    if how == How::Drop {
        let lead = text.len() - text.trim_start_matches(['\n', '\r']).len();
        let kept = text.trim_matches(['\n', '\r']).to_owned();
        caret_at = caret_at.saturating_sub(lead).min(kept.len());
        while !kept.is_char_boundary(caret_at) {
            caret_at -= 1;
        }
        text = kept;
    }
    if text.trim().is_empty() {
        return Err(ContentError::NothingPointed);
    }
    Ok(FieldText {
        text,
        caret: caret_at,
        kind,
        cut: f.cut,
    })
}

/// F2: whether a field looks like it holds a secret.
pub(crate) fn is_secret(f: &Field, id: Option<&str>) -> bool {
    if f.kind.eq_ignore_ascii_case("password") || f.masked {
        return true;
    }
    let autocomplete = f.autocomplete.as_deref().unwrap_or("").to_ascii_lowercase();
    let tokens: Vec<&str> = autocomplete.split_ascii_whitespace().collect();
    if tokens.iter().any(|t| SECRET_AUTOCOMPLETE.contains(t)) {
        return true;
    }
    if !tokens.contains(&"off") {
        return false;
    }
    let kind = f.kind.to_ascii_lowercase();
    kind == "tel"
        || kind == "number"
        || [f.name.as_deref(), id].into_iter().flatten().any(|name| {
            words(name)
                .iter()
                .any(|w| SECRET_WORDS.contains(&w.as_str()))
        })
}

/// The words of a name or id: split at anything but letters and digits, and where a lower-case
/// letter meets an upper-case one (`userPin` is `user`, `pin`), lower-cased.
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars().take(256) {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The byte offset in `s` of UTF-16 offset `units` (a character boundary; the end when past it,
/// the start of a character whose pair `units` splits).
fn byte_at(s: &str, units: usize) -> usize {
    let mut at = 0usize;
    for (i, c) in s.char_indices() {
        if at >= units {
            return i;
        }
        at += c.len_utf16();
        if at > units {
            return i;
        }
    }
    s.len()
}
