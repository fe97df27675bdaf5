"""The club's identity (SPEC §16.7): its name, short name, time zone, its rule book's name, and the references
to the rule book that pages, e-mails and messages show beside a rule ("§2.12").

Read with ``club_identity()``: once a request (``ncpc.core.middleware.request_memo``), so a change shows on
every page from the next request.
Until the President saves it, the club is what the site was before this was data: the defaults of
``ClubIdentity``.

A reference is found by its key, the section number of the rule book the app was written from ("2.12"); the
club's own rule book may number it otherwise ("Art. 7"), or not at all (blank: nothing is shown, with its
parentheses).
"""

import re
import zoneinfo
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.text import slugify

from ncpc.core.audit import Actor, audit_record
from ncpc.core.middleware import request_memo, request_memo_forget
from ncpc.core.models import ClubIdentity

# Every rule the pages refer to: key → what the rule is about (the label on the club identity page). The
# default reference is "§" and the key.
REFERENCES: dict[str, str] = {
    "2": "Who can become a member",
    "2.1": "Minimum age of a new member",
    "2.3": "Number of seats in the club",
    "2.4": "Signing the rules document each season",
    "2.4.2": "A member who turns professional keeps the seat",
    "2.5": "Joining late in the season; seats freed during the season",
    "2.5.1": "Selling or ceding a seat",
    "2.6": "Dues per event",
    "2.7": "Admin fee",
    "2.8": "Dues schedule",
    "2.10": "Late fee",
    "2.11": "Removal for fees unpaid at the first January event",
    "2.12": "Money paid stays with the club when a member leaves",
    "2.16": "Suspension",
    "2.17": "Good standing: who may play",
    "3.2": "Nominations for the election",
    "3.3": "Election of officers",
    "3.4": "Rule changes apply from the next season",
    "3.4.1": "Suggesting a rule change",
    "3.5.5": "The Vice President records the signatures",
    "3.5.7": "The Vice President's points report",
    "3.6.3": "The Treasurer's monthly report",
    "3.6.5": "The annual club winner's cash",
    "4.3": "Starting stack",
    "4.4": "Number of events a season",
    "4.4.1": "A moved event keeps its number",
    "4.4.2": "Two events in one month need a vote",
    "4.5": "The events' schedule",
    "4.6": "Venues and announcing events",
    "4.7": "Checks: approvals and signatures",
    "4.8": "Officers decide disputes",
    "5.2.4": "Calling in late",
    "5.3": "Substitutes",
    "5.3.1": "Substitutes: the limit and no professionals",
    "5.3.2": "Banned players cannot substitute",
    "5.3.4": "Who gets a substitute's prize",
    "5.4.1": "Settling a dispute at the table",
    "5.4.2": "When a dispute can no longer be claimed",
    "5.5.2": "Removal from a night for abuse",
    "5.5.3": "Removal from the club for abuse",
    "5.5.3.1": "A member removed for abuse forfeits what was paid",
    "6.1": "Blind structure",
    "6.2": "Event payouts",
    "6.3": "Late arrival: chips removed, the exemption",
    "6.5": "Places of players out on the same hand",
    "6.6": "Table size and balancing the tables",
    "6.7": "The final table",
    "8.1": "WSOP seats and allocation",
    "8.4": "A qualifier who cannot go to the WSOP",
    "9.2": "Sharing WSOP winnings",
    "9.2.1": "The representative's share of WSOP winnings",
    "10.1": "Points table",
    "10.3": "Drawing the order of equal chip counts",
    "10.6": "Ties at the WSOP cut",
}


# Rules of the bylaws the app applies as they are written, with their numbers: no season's rules hold them, so
# they are not the club's to set, nor to number. The identity page lists them apart ("fixed by the bylaws"), not
# among the club's references; a page that mentions one (the Treasurer's list: "4 new decks") cites the
# bylaws' section only while the club's references all follow the bylaws' numbering (the club's rule book is
# the bylaws), and nothing otherwise, so it never reads as a rule of another club's rule book.
FIXED: dict[str, str] = {
    "3.6.9": "New decks for every event: the Treasurer's list reminds to buy 4 new decks of cards each night",
}


def reference_default(key: str) -> str:
    return f"§{key}"


def reference_known(key: str) -> bool:
    return key in REFERENCES or key in FIXED


def references_follow_bylaws() -> bool:
    """Whether every reference the club shows is the bylaws' own number (none changed, none blank)."""
    stored = club_identity().references
    return all(
        str(stored.get(key, reference_default(key))).strip() == reference_default(key) for key in REFERENCES
    )


def _identity_stored() -> ClubIdentity:
    """The saved row, or the defaults while none is saved (a GET never writes it)."""
    return ClubIdentity.objects.filter(pk=1).first() or ClubIdentity()


def club_identity() -> ClubIdentity:
    """The club's identity: one query a request at most."""
    return request_memo("club_identity", _identity_stored)


def club_file_prefix() -> str:
    """The start of a downloaded file's name: the short name as a file name ("ncpc")."""
    return slugify(club_identity().short_name) or "club"


def club_backup_name() -> str:
    """A backup file's name without its extension, "lakeside-2026-11-29": the short name and the club's date
    (in its time zone, not the server's nor UTC, so a backup made at 23:30 bears that evening's date)."""
    day = timezone.localtime(timezone.now(), club_zone()).date()
    return f"{club_file_prefix()}-{day.isoformat()}"


def club_zone() -> zoneinfo.ZoneInfo:
    """The club's time zone (settings.TIME_ZONE if the stored name is no longer known to the system)."""
    try:
        return zoneinfo.ZoneInfo(club_identity().time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def club_time_zone_activate() -> None:
    """Dates and times from here on are the club's (a request does this in its middleware; a command that
    sends mail calls it first)."""
    timezone.activate(club_zone())


def reference_text(key: str) -> str:
    """What the club's rule book calls rule ``key`` ("§2.12"), or "" when the club shows none."""
    if key in FIXED:
        return reference_default(key) if references_follow_bylaws() else ""
    if key not in REFERENCES:
        raise KeyError(f"{key!r} is not a rule reference (ncpc.core.identity.REFERENCES)")
    stored = club_identity().references.get(key)
    return reference_default(key) if stored is None else str(stored).strip()


def reference_join(*keys: str) -> str:
    """The references of ``keys`` the club shows, joined: "§2.12, §5.5.3.1", or ""."""
    return ", ".join(text for text in (reference_text(key) for key in keys) if text)


def reference_paren(*keys: str) -> str:
    """ " (§2.12)" to follow a sentence's words, or "" when the club shows none of them."""
    joined = reference_join(*keys)
    return f" ({joined})" if joined else ""


# A reference written in a message or label as the rule book the app was written from numbers it: the
# bracket it closes (" (§2.12)", " (§2.12, §5.5.3.1)"), the end of a longer bracket (", §6.3)"), or bare.
_REF = r"§(\d+(?:\.\d+)*)"
_PAREN = re.compile(rf" ?\({_REF}((?:, {_REF})*)\)")
_AFTER = re.compile(rf"[,;] {_REF}\)")
_BARE = re.compile(_REF)


def reference_rewrite(text: str) -> str:
    """``text`` with its references (written "§2.12") as the club's rule book numbers them, and without those
    the club shows none of: for the messages and labels written in code (``NcpcError``, a rule's label and
    help text), where the pages use ``{% rule_ref %}``. A number that is not a known key stays as written."""
    if "§" not in text:
        return text

    def known(key: str) -> str:
        return reference_text(key) if reference_known(key) else f"§{key}"

    def paren(match: re.Match[str]) -> str:
        joined = ", ".join(t for t in (known(k) for k in _BARE.findall(match.group(0))) if t)
        return f" ({joined})" if joined else ""

    def after(match: re.Match[str]) -> str:
        shown = known(match.group(1))
        return f"{match.group(0)[0]} {shown})" if shown else ")"

    text = _PAREN.sub(paren, text)
    text = _AFTER.sub(after, text)
    return _BARE.sub(lambda m: known(m.group(1)), text)


@dataclass(frozen=True)
class IdentityValues:
    name: str
    short_name: str
    time_zone: str
    rule_book: str
    references: dict[str, str]


@transaction.atomic
def club_identity_update(*, values: IdentityValues, actor: Actor) -> bool:
    """Save the club's identity (the President's page), audited; every page shows it from the next request.
    Returns whether it was saved: not when the form was sent as it stood (saved twice), and then nothing is
    written nor recorded. The first save is recorded even when it keeps the defaults: the club says they are
    its own (the set-up checklist's identity step is ticked by it)."""
    identity, created = ClubIdentity.objects.select_for_update().get_or_create(pk=1)
    before = _identity_data(identity)
    identity.name = values.name.strip()
    identity.short_name = values.short_name.strip()
    identity.time_zone = values.time_zone
    identity.rule_book = values.rule_book.strip()
    # Only what differs from the default is kept: a reference left as it was follows the default.
    identity.references = {
        key: text.strip()
        for key, text in values.references.items()
        if key in REFERENCES and text.strip() != reference_default(key)
    }
    identity.full_clean()
    after = _identity_data(identity)
    changed = sorted(field for field in after if after[field] != before[field])
    if not changed and not created:
        return False
    identity.save()
    request_memo_forget()
    audit_record(
        actor=actor,
        action="club.identity",
        summary=f"Club identity saved: {identity.name} ({identity.short_name}), {identity.time_zone}"[:300],
        target=identity,
        data={"before": before, "after": after, "changed": changed},
    )
    return True


@transaction.atomic
def club_references_reset(*, blank: bool, actor: Actor) -> list[str]:
    """Every reference at once, audited: all blank (the pages show no section numbers: the club's rule book
    numbers its rules otherwise, or not at all), or all back to the bylaws' numbering ("§2.12"). Returns the
    references that changed: none when they were so already (the button sent twice), and nothing is recorded."""
    identity, _created = ClubIdentity.objects.select_for_update().get_or_create(pk=1)
    before = dict(identity.references)
    identity.references = dict.fromkeys(REFERENCES, "") if blank else {}
    changed = sorted(key for key in REFERENCES if before.get(key) != identity.references.get(key))
    if not changed:
        return []
    identity.save(update_fields=["references"])
    request_memo_forget()
    audit_record(
        actor=actor,
        action="club.references",
        summary=(
            f"Every reference to the rule book cleared ({len(changed)} changed)"
            if blank
            else f"Every reference to the rule book back to the bylaws' numbering ({len(changed)} changed)"
        ),
        target=identity,
        data={"to": "blank" if blank else "bylaws", "before": before, "changed": changed},
    )
    return changed


def _identity_data(identity: ClubIdentity) -> dict[str, Any]:
    return {
        "name": identity.name,
        "short_name": identity.short_name,
        "time_zone": identity.time_zone,
        "rule_book": identity.rule_book,
        "references": dict(identity.references),
    }


def club_context(request: HttpRequest) -> dict[str, Any]:
    """Templates get ``club`` (read when a template first uses it)."""
    return {"club": SimpleLazyObject(club_identity)}


class ClubTimeZoneMiddleware:
    """Each request shows and counts dates and times in the club's time zone."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        club_time_zone_activate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
