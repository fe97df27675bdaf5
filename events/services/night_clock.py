"""The night's clock on the server (SPEC §4, bylaws §6.1): the officers' commands (start, pause, resume, skip a
level, back one) and what the clock pages show. The arithmetic is the pure ``events.services.clock``; the device's
copy of it is ``static/js/clock_plan.js``, run from ``clock_plan`` when the server cannot be reached."""

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from events import hooks, selectors
from events.models import Attendance, Event, Night
from events.rules import BlindLevelData
from events.services.clock import (
    ClockView,
    clock_back,
    clock_elapsed,
    clock_pause,
    clock_resume,
    clock_skip,
    clock_start,
    clock_view,
    late_arrival_deadline,
    level_starts,
)
from events.services.night import (
    NightRead,
    clock_state_of,
    night_lock,
    night_of,
    not_final,
    structure_of,
    version_check,
)
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.money import money_display

CLOCK_ACTIONS = ("start", "pause", "resume", "skip", "back")


@transaction.atomic
def clock_command(
    *, event: Event, action: str, version: int, actor: Actor, now: dt.datetime | None = None
) -> Night:
    """Start, pause, resume, skip a level or go back one; refused when the page's clock version is stale."""
    if action not in CLOCK_ACTIONS:
        raise NcpcError("Unknown clock action.")
    night = night_lock(event=event)
    not_final(night.event)
    version_check(seen=version, current=night.clock_version, what="clock")
    now = now or timezone.now()
    structure = structure_of(night.event)
    state = clock_state_of(night)
    if action != "start" and state.started_at is None:
        raise NcpcError("The clock has not started yet.")
    if action == "start" and state.started_at is not None:
        raise NcpcError("The clock is running already.")
    if action == "pause" and state.paused_at is not None:
        raise NcpcError("The clock is paused already.")
    if action == "resume" and state.paused_at is None:
        raise NcpcError("The clock is not paused.")
    new = {
        "start": lambda: clock_start(state=state, now=now),
        "pause": lambda: clock_pause(state=state, now=now),
        "resume": lambda: clock_resume(state=state, now=now),
        "skip": lambda: clock_skip(structure=structure, state=state, now=now),
        "back": lambda: clock_back(structure=structure, state=state, now=now),
    }[action]()
    night.started_at, night.paused_at = new.started_at, new.paused_at
    night.paused_seconds, night.shift_seconds = new.paused_seconds, new.shift_seconds
    night.clock_version += 1
    night.save()
    view = clock_view(structure=structure, state=new, now=now)
    audit_record(
        actor=actor,
        action=f"clock.{action}",
        target=night.event,
        summary=f"Clock of {night.event}: {action} → {level_label(view)}, {_mmss(view.seconds_left)} left",
        data={"index": view.index, "elapsed": view.elapsed_seconds},
    )
    return night


def clock_stop(*, event: Event, actor: Actor, now: dt.datetime | None = None) -> None:
    """The night is over (results final): a running clock stops where it is (paused, so a correction that
    reopens the results finds it as it was). Called inside the command that makes the results final."""
    night = Night.objects.select_for_update().filter(event_id=event.pk).first()
    if night is None or night.started_at is None or night.paused_at is not None:
        return
    now = now or timezone.now()
    new = clock_pause(state=clock_state_of(night), now=now)
    night.paused_at = new.paused_at
    night.clock_version += 1
    night.save(update_fields=["paused_at", "clock_version"])
    audit_record(
        actor=actor, action="clock.pause", target=event, summary=f"Clock of {event}: stopped, results final"
    )


def level_label(view: ClockView) -> str:
    if view.kind == "break":
        return "break"
    return f"level {view.level_number} ({view.small_blind}/{view.big_blind}{f' ante {view.ante}' if view.ante else ''})"


def _mmss(seconds: int | None) -> str:
    if seconds is None:
        return "no limit"
    return f"{seconds // 60}:{seconds % 60:02d}"


def clock_payload(
    *, event: Event, now: dt.datetime | None = None, read: NightRead | None = None
) -> dict[str, Any]:
    """What the clock page shows, as plain JSON values. ``seconds_left_exact`` lets every screen count down
    to the same instant between polls; ``server_time`` is the server's clock in milliseconds. ``read``: the
    night's rows the console already read (nothing of them is read again)."""
    now = now or timezone.now()
    night = read.night if read is not None else night_of(event=event)
    structure = structure_of(event)
    state = clock_state_of(night)
    view = clock_view(structure=structure, state=state, now=now)
    exact = None
    current = structure[view.index]
    if current.minutes is not None:
        end = level_starts(structure)[view.index] + current.minutes * 60
        exact = max(0.0, end - clock_elapsed(state=state, now=now))
    field_ = selectors.event_field(event=event, rows=read.rows if read is not None else None)
    if read is not None:  # event_attendances: sorted by last name, first name, pk
        absent = [r for r in read.rows if r.status == Attendance.Status.ABSENT]
    else:
        absent = list(
            Attendance.objects.filter(event=event, status=Attendance.Status.ABSENT)
            .select_related("membership__person")
            .order_by("membership__person__last_name", "membership__person__first_name", "pk")
        )
    levels = selectors.season_rules(event.season).late_arrival_levels
    deadline = late_arrival_deadline(structure=structure, levels=levels)
    return {
        "version": night.clock_version if night else 0,
        # The night's version (events.services.console.night_version) from the rows read before the rest, so
        # it is never newer than what this state shows: the page's ``?since=`` poll answers 204 while it holds.
        "since": f"{event.results_version}.{night.clock_version if night else 0}.{night.seats_version if night else 0}",
        "server_time": int(now.timestamp() * 1000),
        "started": view.started,
        "running": view.running,
        "paused": view.paused,
        "index": view.index,
        "kind": view.kind,
        "level_number": view.level_number,
        "small_blind": view.small_blind,
        "big_blind": view.big_blind,
        "ante": view.ante,
        "note": view.note,
        "minutes": current.minutes,
        "seconds_left": view.seconds_left,
        "seconds_left_exact": exact,
        "next_level": _level_json(view.next_level),
        "next_break": _level_json(view.next_break),
        "seconds_to_next_break": view.seconds_to_next_break,
        "players_left": field_.left,
        "players_started": field_.started,
        "average_stack": field_.average_stack,
        "absent": [a.membership.person.full_name for a in absent],
        "late_arrival_levels": levels,
        "late_arrival_due": bool(
            absent and deadline is not None and view.started and view.elapsed_seconds >= deadline
        ),
        "final": event.status == Event.Status.FINAL,
        "prizes": prizes_payload(event=event, roster=read.roster if read is not None else None),
    }


def prizes_payload(*, event: Event, roster: list[Any] | None = None) -> dict[str, Any]:
    """The night's prize pool and the prize of each paid place, for the members on the roster on the event's
    date (§6.2; the amounts come from the season's payout table, which finance reads). ``roster``: that roster,
    already read."""
    if roster is None:
        roster = hooks.event_roster(season=event.season, event_number=event.number)
    count = len(roster)
    try:
        amounts = hooks.payout_amounts(rules=selectors.season_rules(event.season), member_count=count)
    except NcpcError as exc:
        return {"members": count, "pool": "", "places": [], "error": str(exc)}
    return {
        "members": count,
        "pool": money_display(sum(amounts, Decimal(0))),
        "places": [{"place": n, "amount": money_display(a)} for n, a in enumerate(amounts, start=1)],
        "error": "",
    }


def _level_json(level: BlindLevelData | None) -> dict[str, Any] | None:
    return None if level is None else _level_dict(level)


def _level_dict(level: BlindLevelData) -> dict[str, Any]:
    return {
        "kind": level.kind,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "minutes": level.minutes,
        "note": level.note,
    }


def _ms(when: dt.datetime | None) -> int | None:
    return None if when is None else int(when.timestamp() * 1000)


def clock_plan(*, event: Event, now: dt.datetime | None = None) -> dict[str, Any]:
    """What a screen needs to run the clock with no server (issue 20): the blind structure, the start time,
    the pauses and skips, and the level at whose end absent players' chips come off. The screen computes the
    level, the time left, the breaks and the chip-removal notice from these (``static/js/clock_plan.js``), as
    ``events.services.clock`` does."""
    now = now or timezone.now()
    night = night_of(event=event)
    rules = selectors.season_rules(event.season)
    return {
        "version": night.clock_version if night else 0,
        "server_time": _ms(now),
        "started_at": _ms(night.started_at) if night else None,
        "paused_at": _ms(night.paused_at) if night else None,
        "paused_seconds": night.paused_seconds if night else 0.0,
        "shift_seconds": night.shift_seconds if night else 0.0,
        "late_arrival_levels": rules.late_arrival_levels,
        "structure": [_level_dict(level) for level in rules.blind_structure],
    }
