"""Changes of the night recorded offline (issue 20): busts, undos, table moves and clock changes an officer's
device queued while the host's Wi-Fi was down, sent later in a batch.

The rules:

- Each change carries the device's id, a sequence number per device (1, 2, 3, …), when it happened, the
  action and the versions of the night the device last heard from the server (``seen``: results, seats,
  clock).
- When it happened is the server's time of the tap, whatever the device's clock says (SPEC §17.8: the night's
  order is the order of the taps, and places follow them). The device sends its own clock at the tap
  (``device_at``) and at sending the batch (``sent_at``): the tap was ``sent_at - device_at`` before the batch
  arrived, a difference a clock minutes wrong still measures right (``tap_time``). A change without them (a
  queue kept from before) is taken at its ``happened_at``, the device's estimate of the server's time. Never
  later than the batch's arrival. One ``NightChange`` row per (device, sequence), whatever became of it: a resend answers with what
  happened the first time and never records twice.
- Changes are applied in the order of their sequence numbers, whatever the order of the batch; a change whose
  predecessor from the same device has not arrived yet is held (not stored; the device sends it again).
- A change conflicts only with what another screen did meanwhile to the same player or seat (or the clock,
  for a clock change), SPEC §16.13. When the part of the night it touches (the results for a bust or an undo,
  the seating for a move, the clock for a clock change) is as the device last saw it, apart from the device's
  own changes applied since, nothing can conflict. Otherwise: a bust conflicts when one of its players was
  recorded out on another screen; a move when its player was moved, seated again or put out, or its seat
  taken, on another screen (the seating changes since the version the device saw are read from the audit
  rows of the seating commands); an undo (it names a hand, which another screen may have undone and used
  again) and a clock change conflict with any such change. A conflict is stored and waits for the Vice President (keep mine, keep theirs,
  drop); it is never merged silently.
- A bust or an undo sent once the results are final is parked as a conflict for the officers (SPEC §17.8): the
  final places are not changed by a phone that comes back late. Reopening the results and keeping it applies
  it with its tap time.
- A change that follows a parked one of the same device and depends on it is parked with it
  (``parked_with``): a move after a parked bust or undo (balancing follows the busts), an undo after a parked
  bust or undo (it may be that one's undo), a change of a player after a parked change of the same player, a
  clock change after a parked clock change. It can be kept only once that one is settled.
- A device id belongs to the login that first used it (``NightDevice``); another login sending under it is
  refused and audited. Unknown actions and malformed fields are refused when the batch is read (nothing is
  stored): among them an undo that names no bust (SPEC §17.8); it names its hand, or, for a bust the device
  recorded offline, that change's sequence number (``bust``). A device with ``OPEN_CAP`` changes waiting at
  an event has the rest held until some are settled, so junk cannot grow the conflicts page.
- When the night is as the device saw it, the change goes through the same registry of actions, with the same
  checks, as online (``events.services.night_actions``); a change it refuses is stored as *refused*, with its
  message, and waits to be dropped (or kept, once fixed).
"""

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from events.models import Attendance, Elimination, Event, Night, NightChange, NightDevice, NightSeat
from events.services import night_actions
from events.services.night import SEATED_STATUSES
from events.services.night_actions import player_ids
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.errors import NcpcError, NotAllowed
from ncpc.core.models import AuditEntry

# The part of the night each action checks (``NightAction.area``) and the parts its command moves the version of
# (``moves_of``: an undo also moves the seating — the player back in is reseated, the table moves after the bust
# are taken back — so the device's own undo must not make its next table move look overtaken) come from the
# registry of the night's actions.
AREAS = night_actions.AREAS
CHOICES = ("mine", "theirs", "drop")
MAX_BATCH = 500
# Changes of one device waiting at one event (conflicts and refusals): past this the rest are held.
OPEN_CAP = 50
DEVICE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# The fields each kind of change may carry (anything else is dropped when read), and the clock's changes.
FIELDS = {
    "bust": ("players", "chips"),
    "undo": ("hand", "bust"),
    "move": ("player", "to_table", "to_seat"),
    "clock": ("clock",),
}
CLOCK_CHANGES = ("start", "pause", "resume", "skip", "back")
# The audit actions of the commands that move the seating version (one row each): what another screen did.
SEAT_ACTIONS = (
    "night.draw",
    "night.redraw",
    "night.button",
    "night.seat_add",
    "night.move",
    "night.final_table",
    "results.undo",
)
EVERYONE = -1  # a seating change that may have moved anyone (a draw, the final table, an undo)
# The changes that move places: sent once the results are final, they wait for the officers (SPEC §17.8).
RESULTS_CHANGES = ("bust", "undo")


class SyncError(NcpcError):
    """The batch itself cannot be read (no device, a change without a number or a time, …)."""


class DeviceNotYours(NotAllowed):
    """The device id was first used by another login."""


# A tap more than this long before its batch was sent is not measured by the device's clock (kept for days?):
# it is taken at its ``happened_at``.
TAP_AGE_LIMIT = dt.timedelta(hours=24)


@dataclass(frozen=True)
class OfflineChange:
    sequence: int
    happened_at: dt.datetime
    action: str
    payload: dict[str, Any]
    seen: dict[str, int]


@dataclass(frozen=True)
class ChangeOutcome:
    sequence: int
    status: str  # a NightChange.Status, or "held" (waiting for an earlier change of the device)
    message: str
    duplicate: bool = False  # sent before: this is what happened then
    change_id: int | None = None


# ---------------------------------------------------------------------------------------------------------
# Reading a batch (pure)


def _int(value: Any, *, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise SyncError(f"{what} must be a whole number.")
    try:
        return int(value)
    except ValueError:
        raise SyncError(f"{what} must be a whole number.") from None


def _when(value: Any, *, now: dt.datetime) -> dt.datetime:
    """Milliseconds since 1970 (JavaScript's ``Date.now()``) or an ISO 8601 time; never later than now."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            when = dt.datetime.fromtimestamp(value / 1000, tz=dt.UTC)
        except (OverflowError, OSError, ValueError):
            raise SyncError("A change has a time that cannot be read.") from None
    elif isinstance(value, str) and (parsed := _parse_iso(value)) is not None:
        when = parsed if timezone.is_aware(parsed) else parsed.replace(tzinfo=dt.UTC)
    else:
        raise SyncError("A change has no time (when it happened) or one that cannot be read.")
    return min(when, now)


def _ms(value: Any, *, what: str) -> float | None:
    """A device clock reading in milliseconds (``Date.now()``), None when not sent."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not abs(value) < 2**53:
        raise SyncError(f"{what} must be the device's clock in milliseconds (a number).")
    return float(value)


def tap_time(
    *, happened_at: dt.datetime, device_at: float | None, sent_at: float | None, now: dt.datetime
) -> dt.datetime:
    """The server's time of a change recorded offline (SPEC §17.8). With the device's clock at the tap and at
    sending (``device_at``, ``sent_at``, ms), the tap was that long before the batch arrived (``now``): a clock
    set minutes wrong measures the time between them right. Without them, or when they make no sense (the
    clock went back between the two, or over ``TAP_AGE_LIMIT``), the device's ``happened_at``. Never later
    than now."""
    if device_at is not None and sent_at is not None:
        elapsed = dt.timedelta(milliseconds=sent_at - device_at)
        if dt.timedelta(0) <= elapsed <= TAP_AGE_LIMIT:
            return now - elapsed
    return min(happened_at, now)


def _parse_iso(value: str) -> dt.datetime | None:
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def changes_parse(*, data: Any, now: dt.datetime) -> tuple[str, list[OfflineChange]]:
    """The device and its changes from the posted JSON ``{"device": …, "sent_at": ms, "changes": [{…}, …]}``,
    each change's time the server's time of its tap (``tap_time``) for a batch that arrived ``now``."""
    if not isinstance(data, Mapping):
        raise SyncError('Send {"device": …, "changes": […]}.')
    device = data.get("device")
    if not isinstance(device, str) or not DEVICE.match(device):
        raise SyncError("The device id is missing or not 1–64 letters, digits, - or _.")
    raw = data.get("changes")
    if not isinstance(raw, list):
        raise SyncError("The changes must be a list.")
    if len(raw) > MAX_BATCH:
        raise SyncError(f"At most {MAX_BATCH} changes at once: send the rest in another batch.")
    sent_at = _ms(data.get("sent_at"), what="The batch's sending time (sent_at)")
    changes: list[OfflineChange] = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise SyncError("Each change must be an object.")
        sequence = _int(item.get("sequence"), what="The sequence number of a change")
        if sequence < 1:
            raise SyncError("Sequence numbers start at 1.")
        seen_raw = item.get("seen")
        seen = (
            {k: _int(seen_raw[k], what=f"The {k} version seen") for k in AREAS if k in seen_raw}
            if isinstance(seen_raw, Mapping)
            else {}
        )
        happened_at = tap_time(
            happened_at=_when(item.get("happened_at"), now=now),
            device_at=_ms(item.get("device_at"), what=f"The device's time of change #{sequence} (device_at)"),
            sent_at=sent_at,
            now=now,
        )
        action = item.get("action")
        if (
            not isinstance(action, str)
            or night_actions.offline_action(action) is None
            or action not in FIELDS
        ):
            shown = repr(action)[:40] if action is not None else "none"
            raise SyncError(
                f"Change #{sequence} is of an unknown kind ({shown}): a device sends bust, undo, move or clock."
            )
        payload = {k: item[k] for k in FIELDS[action] if k in item}
        _fields_check(action=action, payload=payload, sequence=sequence)
        changes.append(
            OfflineChange(
                sequence=sequence,
                happened_at=happened_at,
                action=action,
                payload=payload,
                seen=seen,
            )
        )
    if len({c.sequence for c in changes}) != len(changes):
        raise SyncError("A sequence number appears twice in the batch.")
    return device, sorted(changes, key=lambda c: c.sequence)


def _is_int(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | str):
        return False
    try:
        return abs(int(value)) <= night_actions.INT_LIMIT
    except ValueError:
        return False


def _fields_check(*, action: str, payload: Mapping[str, Any], sequence: int) -> None:
    """The fields a kind of change needs, in the shape the console sends them (checked before anything is
    stored; the command's own checks still run when it is applied)."""
    where = f"Change #{sequence} ({action})"
    if action == "bust":
        players = payload.get("players")
        if not isinstance(players, list) or not 1 <= len(players) <= 20:
            raise SyncError(f"{where} must name its players as a list of 1 to 20.")
        if any(not _is_int(p) for p in players):
            raise SyncError(f"{where} names a player that is not a number.")
        chips = payload.get("chips")
        if chips is not None and (
            not isinstance(chips, Mapping)
            or len(chips) > 20
            or any(not _is_int(k) or not _is_int(v) or int(v) < 0 for k, v in chips.items())
        ):
            raise SyncError(f"{where} has chip counts that cannot be read.")
    elif action == "move":
        for key in ("player", "to_table", "to_seat"):
            if not _is_int(payload.get(key)):
                raise SyncError(f"{where} needs {key.replace('_', ' ')} as a number.")
    elif action == "clock":
        if payload.get("clock") not in CLOCK_CHANGES:
            raise SyncError(f"{where} must be one of {', '.join(CLOCK_CHANGES)}.")
    elif action == "undo":
        named = [key for key in ("hand", "bust") if key in payload]
        if len(named) != 1 or not _is_int(payload[named[0]]):
            raise SyncError(
                f"{where} must name the bust it undoes: its hand, or the sequence number of this "
                "device's own bust recorded offline."
            )


# ---------------------------------------------------------------------------------------------------------
# Versions


def night_versions(*, event: Event) -> dict[str, int]:
    """The versions of the night now: results (busts, undos), seats (draw, moves), clock."""
    night = Night.objects.filter(event_id=event.pk).values("seats_version", "clock_version").first()
    results = Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).first()
    return {
        "results": results or 0,
        "seats": night["seats_version"] if night else 0,
        "clock": night["clock_version"] if night else 0,
    }


def _own_applied(*, event: Event, device: str, area: str, seen: int) -> int:
    """How many of the device's changes to ``area`` made while it last saw version ``seen`` went through."""
    actions = [
        name
        for name, action in night_actions.ACTIONS.items()
        if action.offline and area in night_actions.moves_of(action)
    ]
    rows = NightChange.objects.filter(
        event=event, device=device, status=NightChange.Status.APPLIED, action__in=actions
    ).values_list("seen", flat=True)
    return sum(1 for s in rows if isinstance(s, dict) and s.get(area) == seen)


# ---------------------------------------------------------------------------------------------------------
# Applying one change with the online commands


def _apply(
    *,
    event: Event,
    device: str,
    action: str,
    payload: Mapping[str, Any],
    versions: Mapping[str, int],
    actor: Actor,
    when: dt.datetime,
) -> str:
    """Run the change's action against the night as it is now; returns what was done (for the list)."""
    if action == NightChange.Action.UNDO:
        payload = _undo_named(event=event, device=device, payload=payload)
    return night_actions.perform(
        action, event=event, actor=actor, payload=payload, versions=versions, offline=True, when=when
    ).message


def _undo_named(*, event: Event, device: str, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """The hand an offline undo names. An undo of a bust the device recorded offline names that bust by its
    sequence number (``bust``: the device did not know its hand yet): the hand it was recorded under."""
    if "bust" not in payload:
        return payload
    bust = NightChange.objects.filter(
        event=event,
        device=device,
        sequence=int(payload["bust"]),
        action=NightChange.Action.BUST,
        status__in=(NightChange.Status.APPLIED, NightChange.Status.KEPT_MINE),
    ).first()
    players = set(player_ids(bust.payload or {})) if bust is not None else set()
    hands = set(
        Elimination.objects.filter(event=event, attendance_id__in=players).values_list("hand", flat=True)
    )
    if len(hands) != 1:
        raise NcpcError(
            f"The bust this undo names (change #{payload['bust']} of this device) is not recorded."
        )
    return {"hand": hands.pop()}


def _out_elsewhere(*, event: Event, device: str, ids: Sequence[int]) -> list[str]:
    """The players among ``ids`` who are out now by another screen's record (not by this device's own
    applied busts: a second bust of the same player on one device is refused by the online checks)."""
    out = list(
        Attendance.objects.filter(event=event, pk__in=ids, elimination__isnull=False).select_related(
            "membership__person"
        )
    )
    if not out:
        return []
    own: set[int] = set()
    for payload in NightChange.objects.filter(
        event=event, device=device, action=NightChange.Action.BUST, status=NightChange.Status.APPLIED
    ).values_list("payload", flat=True):
        try:
            own.update(player_ids(payload or {}))
        except NcpcError:
            continue
    return [a.player_name for a in out if a.pk not in own]


def _seating_by_others(*, event: Event, device: str, seen: int, now: int) -> tuple[set[int], set[tuple]]:
    """The players and seats another screen's seating changes touched since the device saw version ``seen``.

    Each command that moves the seating version writes one audit row (``SEAT_ACTIONS``), so the newest
    ``now - seen`` of them are the changes since; the device's own applied moves and undos among them are
    left out. A draw, the final table or an undo may have moved anyone: ``EVERYONE`` is in the players."""
    rows = list(
        AuditEntry.objects.filter(
            target_type=Event._meta.label_lower, target_id=str(event.pk), action__in=SEAT_ACTIONS
        )
        .order_by("-pk")
        .values_list("action", "data")[: max(now - seen, 0)]
    )
    own_moves: list[tuple[int, list[int]]] = []
    own_undos = 0
    for action, payload, seen_ in NightChange.objects.filter(
        event=event, device=device, status=NightChange.Status.APPLIED, action__in=("move", "undo")
    ).values_list("action", "payload", "seen"):
        if not isinstance(seen_, dict) or seen_.get("seats") != seen:
            continue
        if action == "undo":
            own_undos += 1
        elif isinstance(payload, dict):
            try:
                own_moves.append(
                    (int(payload["player"]), [int(payload["to_table"]), int(payload["to_seat"])])
                )
            except (KeyError, TypeError, ValueError):
                continue
    players: set[int] = set()
    seats: set[tuple] = set()
    for action, data in rows:
        data = data if isinstance(data, dict) else {}
        if action == "night.move":
            mine = (data.get("attendance"), data.get("to"))
            if mine in own_moves:
                own_moves.remove(mine)  # type: ignore[arg-type]
                continue
            players.add(data.get("attendance") or 0)
            seats.update(tuple(data.get(k) or ()) for k in ("from", "to"))
        elif action == "results.undo" and own_undos:
            own_undos -= 1
        elif action in ("night.draw", "night.redraw", "night.final_table", "results.undo"):
            players.add(EVERYONE)
        # night.button moves no one; night.seat_add seats a newcomer (a seat it took is checked as taken)
    return players, seats


def _conflict(*, event: Event, device: str, change: OfflineChange, area: str, own: int) -> str:
    """Why the change conflicts with another screen's change meanwhile, or "" when nothing it touches was
    touched elsewhere (SPEC §16.13)."""
    versions = night_versions(event=event)
    moved = versions[area] != change.seen[area] + own
    if change.action == NightChange.Action.BUST:
        ids = player_ids(change.payload)
        names = _out_elsewhere(event=event, device=device, ids=ids) if moved else []
        if names:
            return (
                ", ".join(names)
                + " was recorded out on another screen meanwhile; this device recorded it too."
            )
        return ""
    if change.action == NightChange.Action.MOVE:
        player = int(change.payload["player"])
        target = (int(change.payload["to_table"]), int(change.payload["to_seat"]))
        # A bust on another screen does not move the seating version: the player out is checked whatever.
        names = _out_elsewhere(event=event, device=device, ids=[player])
        if names:
            return f"{names[0]} was recorded out on another screen meanwhile: this device moved them."
        if not moved:
            return ""
        players, seats = _seating_by_others(
            event=event, device=device, seen=change.seen[area], now=versions[area]
        )
        if EVERYONE in players:
            return "The seats were drawn again or changed by an undo on another screen meanwhile."
        if player in players:
            name = _name(event=event, attendance_id=player)
            return f"{name} was moved on another screen meanwhile."
        if target in seats or _seat_taken(event=event, target=target, player=player):
            return f"Table {target[0]} seat {target[1]} changed on another screen meanwhile."
        return ""
    if not moved:
        return ""
    if change.action == NightChange.Action.UNDO:
        return (
            "The results changed on another screen while this device was offline: the bust this undo names "
            "may no longer be the one this device saw."
        )
    return "The clock changed on another screen while this device was offline."


def _name(*, event: Event, attendance_id: int) -> str:
    row = (
        Attendance.objects.filter(event=event, pk=attendance_id).select_related("membership__person").first()
    )
    return row.player_name if row else f"player #{attendance_id}"


def _seat_taken(*, event: Event, target: tuple[int, int], player: int) -> bool:
    return (
        NightSeat.objects.filter(
            table__event=event,
            table__number=target[0],
            seat=target[1],
            attendance__status__in=SEATED_STATUSES,
            attendance__elimination__isnull=True,
        )
        .exclude(attendance_id=player)
        .exists()
    )


def _players_of(change: OfflineChange | NightChange) -> set[int]:
    payload = change.payload or {}
    try:
        return set(player_ids(payload))
    except NcpcError:
        return set()


def _depends_on(*, change: OfflineChange, parked: NightChange) -> bool:
    """Whether ``change`` follows from ``parked``, an earlier change of the same device that waits."""
    results = (NightChange.Action.BUST, NightChange.Action.UNDO)
    if change.action == NightChange.Action.CLOCK:
        return parked.action == NightChange.Action.CLOCK
    if parked.action == NightChange.Action.CLOCK:
        return False
    if change.action in (NightChange.Action.MOVE, NightChange.Action.UNDO) and parked.action in results:
        return True  # balancing follows the busts; an undo may be that bust's undo
    if parked.action == NightChange.Action.UNDO:
        return True  # the undo put someone back in: what follows may rest on it
    if _players_of(change) & _players_of(parked):
        return True
    if change.action == parked.action == NightChange.Action.MOVE:
        p, c = parked.payload or {}, change.payload
        return (p.get("to_table"), p.get("to_seat")) == (c.get("to_table"), c.get("to_seat"))
    return False


# ---------------------------------------------------------------------------------------------------------
# Commands


@transaction.atomic
def device_claim(*, device: str, actor: Actor, event: Event) -> str:
    """The device id for the actor: the first login to use it owns it. Returns "" when the actor may send
    under it, otherwise the refusal — written to the audit log here, so it is kept though nothing else is."""
    user = actor_user(actor)
    if user is None:
        return ""  # the system (the demo night, tests)
    row, _ = NightDevice.objects.select_for_update().get_or_create(device=device, defaults={"user": user})
    if row.user_id == user.pk:
        return ""
    audit_record(
        actor=actor,
        action="night.sync_device_refused",
        target=event,
        summary=f"Offline changes refused at {event}: device {device} belongs to another login",
        data={"device": device, "owner": row.user_id},
    )
    return (
        "This device id belongs to another officer's login, so its changes were not taken. Sign in as that "
        "officer to send them, or ask the Vice President to enter them."
    )


def batch_sync(
    *, event: Event, data: Any, actor: Actor, now: dt.datetime | None = None
) -> list[ChangeOutcome]:
    """A batch as a device posted it: read (``changes_parse``, refused whole when it cannot be) and applied."""
    device, changes = changes_parse(data=data, now=now or timezone.now())
    return changes_sync(event=event, device=device, changes=changes, actor=actor)


def changes_sync(
    *,
    event: Event,
    device: str,
    changes: Sequence[OfflineChange],
    actor: Actor,
) -> list[ChangeOutcome]:
    """Apply a device's offline changes in order; store each with its outcome (see the module's rules).
    Raises ``DeviceNotYours`` when the device id was first used by another login (the refusal is audited)."""
    refusal = device_claim(device=device, actor=actor, event=event)
    if refusal:
        raise DeviceNotYours(refusal)
    return _changes_apply(event=event, device=device, changes=changes, actor=actor)


@transaction.atomic
def _changes_apply(
    *,
    event: Event,
    device: str,
    changes: Sequence[OfflineChange],
    actor: Actor,
) -> list[ChangeOutcome]:
    """Each change in sequence order: answered as the first time when sent before, held when it cannot be
    applied yet, otherwise applied or parked (``_sync_one``) and stored; one audit row for the batch."""
    # One sync at a time per event: the batch is checked against versions no other sync is moving.
    locked = Event.objects.select_for_update().get(pk=event.pk)
    ordered = sorted(changes, key=lambda c: c.sequence)
    known = {
        c.sequence: c
        for c in NightChange.objects.filter(device=device, sequence__in=[c.sequence for c in ordered])
    }
    last = NightChange.objects.filter(device=device).aggregate(m=Max("sequence"))["m"] or 0
    waiting = list(
        NightChange.objects.filter(event=locked, device=device, status__in=NightChange.OPEN).order_by(
            "sequence"
        )
    )
    outcomes: list[ChangeOutcome] = []
    stored: list[NightChange] = []
    for change in ordered:
        row = known.get(change.sequence)
        if row is not None:
            outcomes.append(_sent_before(event=locked, change=change, row=row))
            continue
        held = _held(change=change, last=last, waiting=len(waiting))
        if held:
            outcomes.append(ChangeOutcome(sequence=change.sequence, status="held", message=held))
            continue
        row = _sync_one(event=locked, device=device, change=change, actor=actor, waiting=waiting)
        last = change.sequence
        stored.append(row)
        if row.status in NightChange.OPEN:
            waiting.append(row)
        outcomes.append(
            ChangeOutcome(sequence=change.sequence, status=row.status, message=row.message, change_id=row.pk)
        )
    if stored:
        _sync_audit(event=locked, device=device, actor=actor, stored=stored)
    return outcomes


def _sent_before(*, event: Event, change: OfflineChange, row: NightChange) -> ChangeOutcome:
    """The answer to a change this device sent before: what happened then (never applied twice)."""
    if row.event_id != event.pk:
        return ChangeOutcome(
            sequence=change.sequence,
            status=NightChange.Status.REFUSED,
            message="This device used that sequence number for another event.",
            duplicate=True,
            change_id=None,
        )
    return ChangeOutcome(
        sequence=change.sequence, status=row.status, message=row.message, duplicate=True, change_id=row.pk
    )


def _held(*, change: OfflineChange, last: int, waiting: int) -> str:
    """Why a new change waits on the device (sent again later, nothing stored), or "" when it can be applied:
    too many of the device's changes wait for the Vice President, or an earlier one has not arrived."""
    if waiting >= OPEN_CAP:
        return (
            f"{OPEN_CAP} changes of this device wait on the conflicts page: the Vice President settles or drops "
            "them, then the rest are sent."
        )
    if change.sequence != last + 1:
        return f"Waiting for change #{last + 1} of this device: send the queue in order."
    return ""


def _sync_audit(*, event: Event, device: str, actor: Actor, stored: Sequence[NightChange]) -> None:
    counts = {s: sum(1 for r in stored if r.status == s) for s in NightChange.Status.values}
    audit_record(
        actor=actor,
        action="night.sync",
        target=event,
        summary=f"Offline changes of {event} from device {device}: {counts['applied']} applied, "
        f"{counts['conflict']} conflict(s), {counts['refused']} refused",
        data={"device": device, "changes": {str(r.sequence): r.status for r in stored}},
    )


def _sync_one(
    *, event: Event, device: str, change: OfflineChange, actor: Actor, waiting: Sequence[NightChange]
) -> NightChange:
    status, message = NightChange.Status.APPLIED, ""
    spec = night_actions.offline_action(change.action)
    area = spec.area if spec is not None else ""
    parent = next(
        (
            w
            for w in reversed(waiting)
            if w.status == NightChange.Status.CONFLICT and _depends_on(change=change, parked=w)
        ),
        None,
    )
    if parent is not None:
        status = NightChange.Status.CONFLICT
        message = (
            f"Follows “{change_describe(change=parent)}” (#{parent.sequence}), which waits too: "
            "it is parked with it."
        )
    elif change.action in RESULTS_CHANGES and event.status == Event.Status.FINAL:
        status, message = NightChange.Status.CONFLICT, _after_final(event=event, change=change)
    elif area not in change.seen:
        status = NightChange.Status.CONFLICT
        message = "The device did not say which version of the night it last saw."
    else:
        own = _own_applied(event=event, device=device, area=area, seen=change.seen[area])
        message = _conflict(event=event, device=device, change=change, area=area, own=own)
        if message:
            status = NightChange.Status.CONFLICT
        else:
            try:
                with transaction.atomic():
                    message = _apply(
                        event=event,
                        device=device,
                        action=change.action,
                        payload=change.payload,
                        versions=night_versions(event=event),
                        actor=actor,
                        when=change.happened_at,
                    )
            except NcpcError as exc:
                status, message = NightChange.Status.REFUSED, str(exc)
    return NightChange.objects.create(
        event=event,
        device=device,
        sequence=change.sequence,
        happened_at=change.happened_at,
        action=change.action,
        payload=change.payload,
        seen=change.seen,
        status=status,
        message=message[:300],
        recorded_by=actor_user(actor),
        parked_with=parent,
    )


def _after_final(*, event: Event, change: OfflineChange) -> str:
    """Why a bust or an undo that arrived once the results were final waits for the officers (SPEC §17.8)."""
    what = "bust" if change.action == NightChange.Action.BUST else "undo"
    return (
        f"This {what} was tapped at {timezone.localtime(change.happened_at):%H:%M:%S} but reached the server "
        f"after the results of event {event.number} were made final, so the final places stay as they are. "
        "To count it, reopen the results for a correction, then keep it; otherwise drop it."
    )


@transaction.atomic
def change_resolve(
    *, event: Event, change_id: int, choice: str, actor: Actor, now: dt.datetime | None = None
) -> NightChange:
    """The Vice President settles a conflict or a refused change: ``mine`` applies it now against the night
    as it is (with the online checks; a refusal leaves it open), ``theirs`` keeps what the other screen
    recorded and ``drop`` discards it; neither of those two changes the night."""
    if choice not in CHOICES:
        raise NcpcError("Choose keep mine, keep theirs or drop.")
    row = NightChange.objects.select_for_update().filter(event=event, pk=change_id).first()
    if row is None:
        raise NcpcError("No such offline change at this event.")
    if row.status not in NightChange.OPEN:
        raise NcpcError(f"That change is settled already ({row.get_status_display()}).")
    now = now or timezone.now()
    summary = change_describe(change=row)
    if choice == "mine" and row.parked_with_id is not None:
        parent = NightChange.objects.filter(pk=row.parked_with_id, status__in=NightChange.OPEN).first()
        if parent is not None:
            raise NcpcError(
                f"This change follows “{change_describe(change=parent)}”, which still waits: settle that one "
                "first (or keep theirs or drop this one)."
            )
    if choice == "mine":
        versions = night_versions(event=event)
        try:
            with transaction.atomic():
                done = _apply(
                    event=event,
                    device=row.device,
                    action=row.action,
                    payload=row.payload,
                    versions=versions,
                    actor=actor,
                    # A bust kept is placed where it was tapped (SPEC §17.8); a clock change takes effect now.
                    when=row.happened_at if row.action == NightChange.Action.BUST else now,
                )
        except NcpcError as exc:
            raise NcpcError(f"This change cannot be kept: {exc} Keep theirs or drop it.") from exc
        row.status, row.message = NightChange.Status.KEPT_MINE, done[:300]
    else:
        row.status = NightChange.Status.KEPT_THEIRS if choice == "theirs" else NightChange.Status.DROPPED
    row.resolved_by = actor_user(actor)
    row.resolved_at = now
    row.save(update_fields=["status", "message", "resolved_by", "resolved_at"])
    audit_record(
        actor=actor,
        action="night.sync_resolve",
        target=event,
        summary=f"Offline change settled at {event}: {summary} → {row.get_status_display()}",
        data={"change": row.pk, "device": row.device, "sequence": row.sequence, "choice": choice},
    )
    return row


# ---------------------------------------------------------------------------------------------------------
# Reads


def changes_open(*, event: Event) -> list[NightChange]:
    """Conflicts and refused changes waiting for the Vice President, in the order they happened."""
    return list(
        NightChange.objects.filter(event=event, status__in=NightChange.OPEN)
        .select_related("recorded_by", "parked_with")
        .order_by("happened_at", "device", "sequence", "pk")
    )


def change_describe(*, change: NightChange, names: Mapping[int, str] | None = None) -> str:
    """What the change says, in words: "Bust: Ann Smith", "Move: Bob Jones to table 1 seat 4", "Clock: pause"."""
    payload = change.payload or {}
    if names is None:
        ids: list[int] = []
        for key in ("players", "player"):
            try:
                ids += player_ids({key: payload[key]}) if key in payload else []
            except NcpcError:
                pass
        names = {
            a.pk: a.player_name
            for a in Attendance.objects.filter(event_id=change.event_id, pk__in=ids).select_related(
                "membership__person"
            )
        }

    def name(value: Any) -> str:
        try:
            return ", ".join(names.get(i, f"player #{i}") for i in player_ids({"players": value}))
        except NcpcError:
            return "?"

    if change.action == NightChange.Action.BUST:
        return f"Bust: {name(payload.get('players'))}"
    if change.action == NightChange.Action.UNDO:
        if "hand" in payload:
            return f"Undo the bust of hand {payload['hand']}"
        return f"Undo the bust of change #{payload.get('bust', '?')}"
    if change.action == NightChange.Action.MOVE:
        return f"Move: {name(payload.get('player'))} to table {payload.get('to_table')} seat {payload.get('to_seat')}"
    if change.action == NightChange.Action.CLOCK:
        return f"Clock: {payload.get('clock', '?')}"
    return f"Unknown change {change.action!r}"


def change_json(*, change: NightChange) -> dict[str, Any]:
    return {
        "id": change.pk,
        "device": change.device,
        "sequence": change.sequence,
        "happened_at": change.happened_at.isoformat(),
        "action": change.action,
        "what": change_describe(change=change),
        "status": change.status,
        "message": change.message,
        "recorded_by": change.recorded_by.get_username() if change.recorded_by else "",
        "parked_with": change.parked_with_id,
    }
