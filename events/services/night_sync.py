"""Changes of the night recorded offline (issue 20): busts, undos, table moves and clock changes an officer's
device queued while the host's Wi-Fi was down, sent later in a batch.

The rules:

- Each change carries the device's id, a sequence number per device (1, 2, 3, …), when it happened, the
  action and the versions of the night the device last heard from the server (``seen``: results, seats,
  clock). One ``NightChange`` row per (device, sequence), whatever became of it: a resend answers with what
  happened the first time and never records twice.
- Changes are applied in the order of their sequence numbers, whatever the order of the batch; a change whose
  predecessor from the same device has not arrived yet is held (not stored; the device sends it again).
- A change is applied only when the part of the night it touches (the results for a bust or an undo, the
  seating for a move, the clock for a clock change) is as the device last saw it, apart from the device's own
  changes applied since. Otherwise another officer changed it meanwhile: the change is stored as a
  *conflict* and waits for the Vice President (keep mine, keep theirs, drop); it is never merged silently.
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

from events.models import Attendance, Event, Night, NightChange
from events.services import night_actions
from events.services.night_actions import player_ids
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.errors import NcpcError

# The part of the night each action checks (``NightAction.area``) and the parts its command moves the version of
# (``moves_of``: an undo also moves the seating — the player back in is reseated, the table moves after the bust
# are taken back — so the device's own undo must not make its next table move look overtaken) come from the
# registry of the night's actions.
AREAS = night_actions.AREAS
CHOICES = ("mine", "theirs", "drop")
MAX_BATCH = 500
DEVICE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class SyncError(NcpcError):
    """The batch itself cannot be read (no device, a change without a number or a time, …)."""


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


def _parse_iso(value: str) -> dt.datetime | None:
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def changes_parse(*, data: Any, now: dt.datetime) -> tuple[str, list[OfflineChange]]:
    """The device and its changes from the posted JSON ``{"device": …, "changes": [{…}, …]}``."""
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
        payload = {k: v for k, v in item.items() if k not in ("sequence", "happened_at", "action", "seen")}
        changes.append(
            OfflineChange(
                sequence=sequence,
                happened_at=_when(item.get("happened_at"), now=now),
                action=str(item.get("action", ""))[:8],
                payload=payload,
                seen=seen,
            )
        )
    if len({c.sequence for c in changes}) != len(changes):
        raise SyncError("A sequence number appears twice in the batch.")
    return device, sorted(changes, key=lambda c: c.sequence)


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
    action: str,
    payload: Mapping[str, Any],
    versions: Mapping[str, int],
    actor: Actor,
    when: dt.datetime,
) -> str:
    """Run the change's action against the night as it is now; returns what was done (for the list)."""
    return night_actions.perform(
        action, event=event, actor=actor, payload=payload, versions=versions, offline=True, when=when
    ).message


def _conflict_message(*, event: Event, change: OfflineChange, area: str) -> str:
    if change.action == NightChange.Action.BUST:
        try:
            ids = player_ids(change.payload)
        except NcpcError:
            ids = []
        out = list(
            Attendance.objects.filter(event=event, pk__in=ids, elimination__isnull=False).select_related(
                "membership__person"
            )
        )
        if out:
            return (
                ", ".join(a.player_name for a in out)
                + " was recorded out on another screen meanwhile; this device recorded it too."
            )
    what = {"results": "results", "seats": "seating", "clock": "clock"}[area]
    return f"The {what} changed on another screen while this device was offline."


# ---------------------------------------------------------------------------------------------------------
# Commands


@transaction.atomic
def changes_sync(
    *,
    event: Event,
    device: str,
    changes: Sequence[OfflineChange],
    actor: Actor,
) -> list[ChangeOutcome]:
    """Apply a device's offline changes in order; store each with its outcome (see the module's rules)."""
    # One sync at a time per event: the batch is checked against versions no other sync is moving.
    locked = Event.objects.select_for_update().get(pk=event.pk)
    ordered = sorted(changes, key=lambda c: c.sequence)
    known = {
        c.sequence: c
        for c in NightChange.objects.filter(device=device, sequence__in=[c.sequence for c in ordered])
    }
    last = NightChange.objects.filter(device=device).aggregate(m=Max("sequence"))["m"] or 0
    outcomes: list[ChangeOutcome] = []
    stored: list[NightChange] = []
    for change in ordered:
        row = known.get(change.sequence)
        if row is not None:
            if row.event_id != locked.pk:
                outcomes.append(
                    ChangeOutcome(
                        sequence=change.sequence,
                        status=NightChange.Status.REFUSED,
                        message="This device used that sequence number for another event.",
                        duplicate=True,
                        change_id=None,
                    )
                )
            else:
                outcomes.append(
                    ChangeOutcome(
                        sequence=change.sequence,
                        status=row.status,
                        message=row.message,
                        duplicate=True,
                        change_id=row.pk,
                    )
                )
            continue
        if change.sequence != last + 1:
            outcomes.append(
                ChangeOutcome(
                    sequence=change.sequence,
                    status="held",
                    message=f"Waiting for change #{last + 1} of this device: send the queue in order.",
                )
            )
            continue
        row = _sync_one(event=locked, device=device, change=change, actor=actor)
        last = change.sequence
        stored.append(row)
        outcomes.append(
            ChangeOutcome(sequence=change.sequence, status=row.status, message=row.message, change_id=row.pk)
        )
    if stored:
        counts = {s: sum(1 for r in stored if r.status == s) for s in NightChange.Status.values}
        audit_record(
            actor=actor,
            action="night.sync",
            target=locked,
            summary=f"Offline changes of {locked} from device {device}: {counts['applied']} applied, "
            f"{counts['conflict']} conflict(s), {counts['refused']} refused",
            data={"device": device, "changes": {str(r.sequence): r.status for r in stored}},
        )
    return outcomes


def _sync_one(*, event: Event, device: str, change: OfflineChange, actor: Actor) -> NightChange:
    status, message = NightChange.Status.APPLIED, ""
    spec = night_actions.offline_action(change.action)
    area = spec.area if spec is not None else None
    if area is None:
        status, message = NightChange.Status.REFUSED, f"Unknown kind of change: {change.action!r}."
    elif area not in change.seen:
        status = NightChange.Status.CONFLICT
        message = "The device did not say which version of the night it last saw."
    else:
        versions = night_versions(event=event)
        expected = change.seen[area] + _own_applied(
            event=event, device=device, area=area, seen=change.seen[area]
        )
        if versions[area] != expected:
            status = NightChange.Status.CONFLICT
            message = _conflict_message(event=event, change=change, area=area)
        else:
            try:
                with transaction.atomic():
                    message = _apply(
                        event=event,
                        action=change.action,
                        payload=change.payload,
                        versions=versions,
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
        action=change.action if area else "",
        payload=change.payload,
        seen=change.seen,
        status=status,
        message=message[:300],
        recorded_by=actor_user(actor),
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
    if choice == "mine":
        versions = night_versions(event=event)
        try:
            with transaction.atomic():
                done = _apply(
                    event=event,
                    action=row.action,
                    payload=row.payload,
                    versions=versions,
                    actor=actor,
                    when=now,
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
        .select_related("recorded_by")
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
        return "Undo the last bust"
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
    }
