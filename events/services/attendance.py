"""Attendance at an event: who plays, who is absent, late calls, substitutes (SPEC §4, bylaws §5.2, §5.3, §6.3).

Commands: ``@transaction.atomic``, the event row locked and its results version checked, an audit row each.
Good standing, the rules signature and the roster are asked of finance and members through ``events.hooks``
(events sits below them), so those apps decide and tests can replace them.
"""

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone

from events import hooks, selectors
from events.errors import ExemptionUsed, NotInGoodStanding, RulesNotSigned
from events.models import Attendance, Event, Rsvp
from events.services import late_arrival
from events.services.locking import event_bump, event_lock, event_lock_open
from events.services.seat_answers import WAITING, seat_answer_apply, substitute_refusal
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError


def playing_refusal(*, attendance: Attendance, event: Event) -> NcpcError | None:
    """Why the member cannot be entered as playing at this event, or None (§2.17, §2.4)."""
    membership = attendance.membership
    name = membership.person.full_name
    if not hooks.good_standing(membership=membership, on=event.date):
        return NotInGoodStanding(
            f"{name} is not in good standing on {event.date:%b %-d, %Y} (dues, fees or penalties charged by "
            "then are unpaid, or a suspension covers the date), so cannot play (§2.17). The treasurer can "
            f"record the payment; then set {name} to play again."
        )
    if not hooks.rules_signed(membership=membership):
        return RulesNotSigned(
            f"{name} has not signed the {event.season} rules document, so cannot play (§2.4). An officer "
            f"can record the signature on the members page; then set {name} to play again."
        )
    return None


def _default_status(*, attendance: Attendance, event: Event) -> str:
    refusal = playing_refusal(attendance=attendance, event=event)
    if isinstance(refusal, NotInGoodStanding):
        return Attendance.Status.NOT_IN_GOOD_STANDING
    if isinstance(refusal, RulesNotSigned):
        return Attendance.Status.NOT_SIGNED
    return Attendance.Status.EXPECTED


def _status_refresh(*, row: Attendance, event: Event, actor: Actor, why: str) -> bool:
    """Ask good standing and the signature again for one seat; save and say so when its status changes.

    A seat that may play now gets the member's who's-coming answer kept on it (SPEC §16.5): late with the
    member's own call-in time and exemption, absent, or the substitute (``seat_answer_apply``; ``why``: what
    made it eligible, for the audit row)."""
    status = _default_status(attendance=row, event=event)
    if status == row.status:
        return False
    row.status = status
    row.save(update_fields=["status"])
    if status == Attendance.Status.EXPECTED:
        _kept_answer_apply(row=row, event=event, actor=actor, why=why)
    return True


def _kept_answer_apply(*, row: Attendance, event: Event, actor: Actor, why: str) -> None:
    """The seat may play now: the member's answer kept on it, if any, is written there (SPEC §16.5)."""
    kept = Rsvp.objects.filter(event=event, membership_id=row.membership_id, applied_at__isnull=True).first()
    if kept is not None:
        seat_answer_apply(rsvp=kept, row=row, event=event, actor=actor, now=timezone.now(), when=why)


def _answered_call(*, row: Attendance, event: Event) -> dt.datetime | None:
    """When the member called in, by their "late" answer for the event (None: no such answer)."""
    called: dt.datetime | None = (
        Rsvp.objects.filter(event=event, membership_id=row.membership_id, answer=Rsvp.Answer.LATE)
        .values_list("called_in_at", flat=True)
        .first()
    )
    return called


AUTO_STATUSES = (
    Attendance.Status.EXPECTED,
    Attendance.Status.NOT_IN_GOOD_STANDING,
    Attendance.Status.NOT_SIGNED,
)


def roster_without_seat(*, event: Event) -> list[Any]:
    """Members on the event's roster who have no seat row yet: what ``attendance_prepare`` would add (a read,
    for the pages that offer to list the seats)."""
    have = set(Attendance.objects.filter(event=event).values_list("membership_id", flat=True))
    return [m for m in hooks.event_roster(season=event.season, event_number=event.number) if m.pk not in have]


@transaction.atomic
def attendance_prepare(*, event: Event, actor: Actor = None) -> int:
    """Give every member on the event's roster a seat row (plays, unless not in good standing or unsigned).

    Safe to call again: only missing rows are added. Returns how many were added. A command (officers press
    "Open the night"): a page that only shows the seats never lists them.
    """
    locked = event_lock(event=event, version=None)
    if locked.status == Event.Status.FINAL:
        return 0
    added = 0
    for membership in roster_without_seat(event=locked):
        row = Attendance(event=locked, membership=membership)
        row.status = _default_status(attendance=row, event=locked)
        row.save()
        added += 1
    if added:
        event_bump(event=locked)
        event.results_version = locked.results_version
        audit_record(
            actor=actor,
            action="event.attendance.prepare",
            target=locked,
            summary=f"Seats listed for {locked}: {added} member{'' if added == 1 else 's'} from the roster",
        )
    return added


@transaction.atomic
def attendance_recheck(*, event: Event, version: int, actor: Actor) -> int:
    """Ask good standing and signatures again for seats not out yet (after a payment or a signature)."""
    locked = event_lock_open(event=event, version=version)
    changed = 0
    for row in Attendance.objects.filter(event=locked, status__in=AUTO_STATUSES, elimination__isnull=True):
        changed += _status_refresh(row=row, event=locked, actor=actor, why="checked again")
    event_bump(event=locked)
    audit_record(
        actor=actor, action="attendance.recheck", target=locked, summary=f"Rechecked standing for {locked}"
    )
    return changed


@transaction.atomic
def attendance_after_payment(*, membership: Any, actor: Actor) -> list[Attendance]:
    """A payment may put a member back in good standing (paying at the door counts, SPEC §7): their seats listed
    "not in good standing" at events whose results are still open are asked again at once, so the officer at
    the table need not press "check again". Returns the seats that changed (their event is the locked row)."""
    changed = []
    rows = (
        Attendance.objects.filter(
            membership=membership, status=Attendance.Status.NOT_IN_GOOD_STANDING, elimination__isnull=True
        )
        .exclude(event__status=Event.Status.FINAL)
        .select_related("membership__person")
        .order_by("event__date", "pk")
    )
    for row in rows:
        locked = event_lock(event=row.event, version=None)
        if locked.status == Event.Status.FINAL:
            continue
        if not _status_refresh(row=row, event=locked, actor=actor, why="after a payment"):
            continue
        row.event = locked
        event_bump(event=locked)
        audit_record(
            actor=actor,
            action="attendance.recheck",
            target=locked,
            summary=f"{membership.person} at {locked} after a payment: {row.get_status_display()}",
        )
        changed.append(row)
    return changed


def _seat(*, event: Event, attendance_id: int) -> Attendance:
    row = (
        Attendance.objects.select_related("membership__person", "membership__season")
        .filter(event=event, pk=attendance_id)
        .first()
    )
    if row is None:
        raise NcpcError("Unknown player: that member has no seat at this event.")
    return row


def _late_arrival_refusal(
    *, row: Attendance, event: Event, status: str, now: dt.datetime
) -> NcpcError | None:
    """SPEC §15.5 on the night's clock: an absent member may take their seat during the first hour, one who
    called in (the exemption) until the end of the second hour; not seated by then, the chips come off."""
    if status != Attendance.Status.EXPECTED or row.status not in Attendance.AWAY:
        return None
    elapsed = late_arrival.elapsed_at(event=event, when=now, now=now)
    first = late_arrival.first_hour_seconds(event=event)
    if elapsed is None or first is None:
        return None
    name = row.membership.person.full_name
    level = selectors.season_rules(event.season).late_arrival_levels
    if row.status == Attendance.Status.ABSENT and elapsed >= first:
        return NcpcError(
            f"{name} arrives after the end of level {level} (the first hour): the chips come off (§6.3), unless "
            f"{name} called in within the first hour and uses the exemption of the season."
        )
    second = late_arrival.second_hour_seconds(event=event)
    if row.status == Attendance.Status.CALLED_IN and second is not None and elapsed >= second:
        return NcpcError(
            f"The second hour of play is over: {name} was not seated in time, so the chips come off as for anyone "
            "(no place, no points, no prize; §6.3)."
        )
    return None


def _call_refusal(
    *, row: Attendance, event: Event, called_at: dt.datetime, now: dt.datetime
) -> NcpcError | None:
    """The exemption needs the call within the first hour of play (SPEC §15.5)."""
    if called_at > now:
        return NcpcError("The time of the call cannot be later than now.")
    elapsed = late_arrival.elapsed_at(event=event, when=called_at, now=now)
    first = late_arrival.first_hour_seconds(event=event)
    if elapsed is not None and first is not None and elapsed > first:
        level = selectors.season_rules(event.season).late_arrival_levels
        return NcpcError(
            f"{row.membership.person.full_name} called after the end of level {level} (the first hour of play): "
            "the exemption needs the call within the first hour (§6.3), so the chips come off."
        )
    return None


@transaction.atomic
def attendance_set(
    *,
    event: Event,
    attendance_id: int,
    status: str,
    version: int,
    actor: Actor,
    called_at: dt.datetime | None = None,
    now: dt.datetime | None = None,
) -> Attendance:
    """Set a seat's status. Playing needs good standing and a signed rules document; a late call uses the
    member's one exemption of the season and records the time of the call (``called_at``, default now), which
    must fall within the first hour of play. A member away (absent, or called in) who is set to play has arrived:
    the time is recorded, within the first hour (absent) or the second (called in) once the clock runs."""
    now = now or timezone.now()
    locked = event_lock_open(event=event, version=version)
    row = _seat(event=locked, attendance_id=attendance_id)
    _status_change_check(row=row, event=locked, status=status, now=now)
    name = row.membership.person.full_name
    fields = [
        "status",
        *_call_and_arrival_set(row=row, event=locked, status=status, called_at=called_at, now=now),
    ]
    if status not in Attendance.PLAYING and row.substitute_name:
        raise NcpcError(f"{name} sends a substitute tonight: remove the substitute first.")
    old = row.status
    row.status = status
    row.save(update_fields=fields)
    event_bump(event=locked)
    _status_audit(actor=actor, row=row, event=locked, old=old, fields=fields)
    if old in WAITING and status == Attendance.Status.EXPECTED:
        _kept_answer_apply(row=row, event=locked, actor=actor, why="set to play")
    return row


def _status_change_check(*, row: Attendance, event: Event, status: str, now: dt.datetime) -> None:
    """Refuse an unknown status, a status other than playing for who is out, and who may not play or arrive."""
    if status not in Attendance.Status.values:
        raise NcpcError("Unknown attendance status.")
    name = row.membership.person.full_name
    if hasattr(row, "elimination") and status not in Attendance.PLAYING:
        raise NcpcError(f"{name} is already out of the tournament: undo that bust first.")
    if status in (*Attendance.PLAYING, Attendance.Status.CALLED_IN):
        refusal = playing_refusal(attendance=row, event=event)
        if refusal:
            raise refusal
    late = _late_arrival_refusal(row=row, event=event, status=status, now=now)
    if late:
        raise late


def _call_and_arrival_set(
    *, row: Attendance, event: Event, status: str, called_at: dt.datetime | None, now: dt.datetime
) -> list[str]:
    """Record the time of a late call (using the season's one exemption) or of an arrival on the row (not saved),
    or clear a call set by mistake; the names of the fields set."""
    fields: list[str] = []
    if status == Attendance.Status.CALLED_IN and row.status != Attendance.Status.CALLED_IN:
        used = selectors.exemption_used_at(membership=row.membership, exclude_event=event)
        if used is not None:
            level = selectors.season_rules(event.season).late_arrival_levels
            raise ExemptionUsed(
                f"{row.membership.person.full_name} used the once-a-season late-arrival exemption at event "
                f"{used.number} already (§6.3): the chips are removed at the end of level {level}."
            )
        # Set by hand, the call is the member's own when they answered "late" (SPEC §16.5), not the tap.
        called_at = called_at or _answered_call(row=row, event=event) or now
        refusal = _call_refusal(row=row, event=event, called_at=called_at, now=now)
        if refusal:
            raise refusal
        row.called_in_at = called_at
        fields.append("called_in_at")
    elif status in (Attendance.Status.ABSENT, *AUTO_STATUSES[1:]) and row.called_in_at is not None:
        row.called_in_at = None  # set by mistake: the exemption is not used after all
        fields.append("called_in_at")
    if status == Attendance.Status.EXPECTED and row.status in Attendance.AWAY:
        row.arrived_at = now
        fields.append("arrived_at")
    return fields


def _status_audit(*, actor: Actor, row: Attendance, event: Event, old: str, fields: list[str]) -> None:
    """The audit row of a seat's status set by hand."""
    name = row.membership.person.full_name
    audit_record(
        actor=actor,
        action="attendance.set",
        target=row,
        summary=f"{name} at {event}: {Attendance.Status(old).label} → {Attendance.Status(row.status).label}"
        + (
            f" (called at {timezone.localtime(row.called_in_at):%H:%M})"
            if "called_in_at" in fields and row.called_in_at
            else ""
        )
        + (" (arrived)" if "arrived_at" in fields else ""),
        data={
            "event": event.pk,
            "from": old,
            "to": row.status,
            "called_in_at": row.called_in_at.isoformat() if row.called_in_at else None,
        },
    )


@transaction.atomic
def substitute_set(
    *,
    event: Event,
    attendance_id: int,
    name: str,
    not_professional: bool,
    prize_to: str,
    version: int,
    actor: Actor,
) -> Attendance:
    """Record (or with an empty name, remove) the substitute who plays a member's seat (§5.3).

    At most ``substitutes_per_season`` events a season per member; the substitute must not be a professional
    gambler (a statement is required, and a known professional is refused) nor banned from the club.
    """
    locked = event_lock_open(event=event, version=version)
    row = _seat(event=locked, attendance_id=attendance_id)
    member = row.membership.person.full_name
    name = " ".join(name.split())
    if not name:
        row.substitute_name, row.substitute_person, row.prize_to = "", None, Attendance.PrizeTo.MEMBER
        row.save(update_fields=["substitute_name", "substitute_person", "prize_to"])
        event_bump(event=locked)
        audit_record(
            actor=actor,
            action="attendance.substitute_remove",
            target=row,
            summary=f"No substitute for {member}",
        )
        return row
    used = selectors.substitutes_used(membership=row.membership, exclude_event=locked)
    known, refused = substitute_refusal(
        membership=row.membership,
        event=locked,
        name=name,
        not_professional=not_professional,
        prize_to=prize_to,
        used=used,
    )
    if refused:
        raise refused
    refusal = playing_refusal(attendance=row, event=locked)
    if refusal:
        raise refusal
    row.substitute_name = name
    row.substitute_person = known[0] if len(known) == 1 else None
    row.prize_to = prize_to
    if row.status not in Attendance.PLAYING:
        row.status = Attendance.Status.EXPECTED
    row.save(update_fields=["substitute_name", "substitute_person", "prize_to", "status"])
    event_bump(event=locked)
    audit_record(
        actor=actor,
        action="attendance.substitute",
        target=row,
        summary=f"{name} substitutes for {member} at {locked}; prize to the {prize_to}",
        data={"event": locked.pk, "substitute": name, "prize_to": prize_to},
    )
    return row
