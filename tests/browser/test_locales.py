"""Every string the person sees comes from _locales, and every locale the extension ships is
complete: each key of the default locale (en) is in every other locale, with the same placeholders,
used in its text, and translated (not the English left in place). Keys the code asks for exist.

When a new key lands in en without its translation, this fails and names it.
"""

import json
import pathlib
import re

import pytest

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
LOCALES = REPO_ROOT / "extension" / "_locales"
DEFAULT = "en"
# Words that stay as they are in every language (names, the standard's terms).
UNTRANSLATED_OK = {"extensionName", "extensionShortName", "popupTitle", "standardLabel", "consentHubLabel",
                   "consentAgentLabel", "errorCode", "statusDetail"}


def load(locale):
    return json.loads((LOCALES / locale / "messages.json").read_text(encoding="utf-8"))


def other_locales():
    return sorted(p.name for p in LOCALES.iterdir() if p.is_dir() and p.name != DEFAULT)


def used_placeholders(text):
    return {m.lower() for m in re.findall(r"\$([A-Za-z0-9_@]+)\$", text)}


def test_there_is_a_second_locale():
    assert other_locales(), "only the default locale ships"


@pytest.mark.parametrize("locale", other_locales())
def test_every_default_key_is_translated(locale):
    en, other = load(DEFAULT), load(locale)
    missing = sorted(set(en) - set(other))
    assert not missing, f"{locale} lacks {len(missing)} keys of {DEFAULT}: {missing}"
    extra = sorted(set(other) - set(en))
    assert not extra, f"{locale} has keys {DEFAULT} does not: {extra}"
    for key, entry in en.items():
        theirs = other[key]
        assert theirs["message"].strip(), f"{locale}.{key} is empty"
        assert set(theirs.get("placeholders", {})) == set(entry.get("placeholders", {})), \
            f"{locale}.{key}: placeholders differ from {DEFAULT}"
        assert used_placeholders(theirs["message"]) == used_placeholders(entry["message"]), \
            f"{locale}.{key} does not use the same $PLACEHOLDERS$ as {DEFAULT}: {theirs['message']!r}"
        if key not in UNTRANSLATED_OK and len(entry["message"].split()) >= 2:
            assert theirs["message"] != entry["message"], f"{locale}.{key} is still the English text"


def test_every_key_the_pages_ask_for_exists():
    en = load(DEFAULT)
    asked = set()
    for html in (REPO_ROOT / "extension").rglob("*.html"):
        asked |= set(re.findall(r'data-i18n="([A-Za-z0-9_]+)"', html.read_text()))
    for js in (REPO_ROOT / "extension").rglob("*.js"):
        asked |= set(re.findall(r"\bt\('([A-Za-z0-9_]+)'", js.read_text()))
    manifest = (REPO_ROOT / "extension" / "manifest.json").read_text()
    asked |= set(re.findall(r"__MSG_([A-Za-z0-9_]+)__", manifest))
    for rs in (REPO_ROOT / "crates" / "background" / "src").rglob("*.rs"):
        asked |= set(re.findall(r'message\(\s*"([A-Za-z0-9_]+)"', rs.read_text()))
    assert asked, "found no key the extension asks for: the scan is broken"
    missing = sorted(asked - set(en))
    assert not missing, f"keys asked for but not in _locales/{DEFAULT}: {missing}"
