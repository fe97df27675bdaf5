"""What the conflicts page says about each offline change that waits (issue 46): both sides, in words.

*Mine* is the change a phone recorded offline: who recorded it (the login that sent it), when it was tapped,
and what it changes. *Theirs* is what the server has instead: the latest record of another screen that
touched the same player, seat or clock (read from the audit rows the night's commands write, one per change),
with who recorded it and when. A change the checks refused has no other side: the server's refusal says why.

Reads only; the choice itself is ``night_sync.change_resolve``.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from events.models import Event, NightChange
from events.services.night_actions import player_ids
from events.services.night_sync import SEAT_ACTIONS, change_describe
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from ncpc.core.permissions import user_person

RESULTS_ACTIONS = ("results.bust", "results.abuse", "results.undo")
# Seating commands that may have moved anyone: they touch every player and seat.
SEAT_EVERYONE = ("night.draw", "night.redraw", "night.final_table", "results.undo")
# A sync writes the record of each of the device's own changes it applies just before that change's row: a
# record of the same login made at most this long before one of the device's applied rows is its own.
OWN_WINDOW = dt.timedelta(seconds=2)


@dataclass(frozen=True)
class Side:
    """One side of a conflict: who recorded it, when (aware; the page shows club time) and what it changes."""

    who: str
    when: dt.datetime | None
    what: str


@dataclass(frozen=True)
class ConflictView:
    """An offline change that waits, as the conflicts page shows it. ``yours``: the viewer recorded it (the
    buttons say "Keep mine / Keep theirs"; to another officer "Apply this change / Keep what the server has")."""

    change: NightChange
    mine: Side
    theirs: Side | None
    yours: bool
    after: str  # the change it is parked with, in words ("" when none)


def login_name(user: Any) -> str:
    """A login as the pages name it: the person's full name, else the username; None is the app itself."""
    if user is None:
        return "the app (no login)"
    person = user_person(user)
    return person.full_name if person is not None else user.get_username()


def conflicts_view(*, event: Event, rows: Sequence[NightChange], viewer: Any) -> list[ConflictView]:
    """Both sides of each open change of ``rows`` (``night_sync.changes_open``), for ``viewer``."""
    return [
        ConflictView(
            change=row,
            mine=Side(
                who=login_name(row.recorded_by), when=row.happened_at, what=change_describe(change=row)
            ),
            theirs=_theirs(event=event, change=row) if row.status == NightChange.Status.CONFLICT else None,
            yours=row.recorded_by_id is not None and row.recorded_by_id == getattr(viewer, "pk", None),
            after=change_describe(change=row.parked_with) if row.parked_with is not None else "",
        )
        for row in rows
    ]


def _theirs(*, event: Event, change: NightChange) -> Side | None:
    """The latest record of another screen that touched what ``change`` touches, before the change arrived."""
    actions: tuple[str, ...]
    if change.action in (NightChange.Action.BUST, NightChange.Action.UNDO):
        actions = RESULTS_ACTIONS
    elif change.action == NightChange.Action.MOVE:
        actions = SEAT_ACTIONS
    else:
        actions = ()
    rows = AuditEntry.objects.filter(
        target_type=Event._meta.label_lower, target_id=str(event.pk), at__lte=change.received_at
    ).select_related("actor")
    rows = rows.filter(action__in=actions) if actions else rows.filter(action__startswith="clock.")
    applied = list(
        NightChange.objects.filter(
            event=event,
            device=change.device,
            status__in=(NightChange.Status.APPLIED, NightChange.Status.KEPT_MINE),
        ).values_list("received_at", flat=True)
    )
    for entry in rows.order_by("-at", "-pk")[:200]:
        if _own(entry=entry, change=change, applied=applied):
            continue
        if _touches(entry=entry, change=change):
            return Side(who=login_name(entry.actor), when=entry.at, what=_what(entry))
    return None


def _own(*, entry: AuditEntry, change: NightChange, applied: Sequence[dt.datetime]) -> bool:
    """Whether ``entry`` records one of the device's own changes applied by a sync (not another screen's)."""
    return (
        change.recorded_by_id is not None
        and entry.actor_id == change.recorded_by_id
        and any(entry.at <= at <= entry.at + OWN_WINDOW for at in applied)
    )


def _touches(*, entry: AuditEntry, change: NightChange) -> bool:
    payload = change.payload or {}
    data = entry.data if isinstance(entry.data, dict) else {}
    if change.action == NightChange.Action.CLOCK:
        return True
    if change.action == NightChange.Action.UNDO:
        return "hand" not in payload or data.get("hand") == _number(payload.get("hand"))
    if change.action == NightChange.Action.BUST:
        players = _players(payload.get("players"))
        touched = {b.get("attendance") for b in data.get("busts", []) if isinstance(b, dict)}
        touched.update(a for a in data.get("attendances", []) if isinstance(a, int))
        return bool(players & touched)
    if entry.action in SEAT_EVERYONE:
        return True
    target = [_number(payload.get("to_table")), _number(payload.get("to_seat"))]
    return data.get("attendance") in _players(payload.get("player")) or target in (
        data.get("from"),
        data.get("to"),
    )


def _what(entry: AuditEntry) -> str:
    """The record in words: its audit summary, without the event's name the page shows already."""
    return entry.summary


def _players(value: Any) -> set[int]:
    try:
        return set(player_ids({"players": value}))
    except NcpcError:
        return set()


def _number(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
