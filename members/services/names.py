"""People's names as a spreadsheet brings them (pure): tidy capitalisation, a comparable form for spotting the
same person twice, and a handle made from a name when none is given (SPEC §16.10)."""

import re
import unicodedata
from collections.abc import Collection

# "Mac" starts these names without making the next letter a capital (Machado, not MacHado).
MAC_PLAIN = frozenset(
    {
        "mace",
        "macey",
        "machado",
        "machar",
        "machin",
        "machlin",
        "macias",
        "mack",
        "mackey",
        "mackie",
        "mackle",
        "macklin",
        "macon",
        "macquarie",
        "macri",
        "macy",
    }
)
ROMAN = frozenset({"ii", "iii", "iv", "vi", "vii", "viii"})
_PARTS = re.compile(r"([ \-'’.]+)")
KEY_LIMIT = 40  # Person.key's max_length


def _word_tidy(word: str) -> str:
    lower = word.lower()
    if lower in ROMAN:
        return lower.upper()
    if lower.startswith("mc") and len(lower) > 2:
        return "Mc" + lower[2:].capitalize()
    if lower.startswith("mac") and len(lower) > 5 and lower not in MAC_PLAIN and lower[-1] not in "aciozj":
        return "Mac" + lower[3:].capitalize()
    return lower.capitalize()


def name_tidy(name: str) -> str:
    """A name typed all in lower or all in upper case, capitalised: "linda o'brien" → "Linda O'Brien",
    "MIKE SMITH" → "Mike Smith", "mcdonald" → "McDonald", "smith-jones" → "Smith-Jones". A name with both
    cases is left as typed (it was typed with care: "DeShawn", "van Dyke"); runs of spaces become one."""
    name = " ".join(name.split())
    if not name or (name != name.lower() and name != name.upper()):
        return name
    return "".join(part if _PARTS.fullmatch(part) else _word_tidy(part) for part in _PARTS.split(name))


def name_untidy(name: str) -> bool:
    """Whether ``name_tidy`` would change the name's capitalisation."""
    return name_tidy(name) != " ".join(name.split())


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def name_compare_form(first_name: str, last_name: str = "") -> str:
    """The same person's name however it was typed: case, spaces, accents and punctuation ignored."""
    return re.sub(r"[^a-z0-9]", "", _ascii(f"{first_name}{last_name}"))


def person_key_make(*, first_name: str, last_name: str, taken: Collection[str]) -> str:
    """A handle for someone the spreadsheet names without one: the first name and the last name's initial
    ("Linda O'Brien" → "lindao"), then more of the last name while that is taken ("lindaob", …), then a
    number ("lindaobrien2"). Lower-case letters and digits only; never one of ``taken``."""
    first = re.sub(r"[^a-z0-9]", "", _ascii(first_name))[:30]
    last = re.sub(r"[^a-z0-9]", "", _ascii(last_name))[: KEY_LIMIT - 4 - len(first)]
    if not first:
        first, last = last, ""
    if not first:
        first = "member"
    for length in range(1, len(last) + 1):
        key = first + last[:length]
        if key not in taken:
            return key
    base = first + last
    if not last and base not in taken:
        return base
    number = 2
    while f"{base}{number}" in taken:
        number += 1
    return f"{base}{number}"
