"""Tournament night on the server (SPEC §4, bylaws §5.2, §5.8, §6.1, §6.3–6.7): the clock, the seat draw,
table balancing, the final table and late arrivals.

The rules themselves are the pure calculators in ``events.services.clock`` and ``events.services.seating``;
this module stores their inputs and applies their answers. Commands are ``@transaction.atomic``, lock the
night row (``select_for_update``), check the version the officer's page saw, and write an audit row.
Reads used by the night pages are at the bottom.
"""

import datetime as dt
import random
import secrets
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from events import hooks, selectors
from events.models import Attendance, Event, Night, NightMove, NightSeat, NightTable
from events.rules import BlindLevelData
from events.services import attendance as attendance_services
from events.services import late_arrival
from events.services.clock import (
    ClockState,
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
from events.services.seating import (
    Move,
    Table,
    allowed_empty_seats,
    balance_moves,
    final_table_draw,
    final_table_due,
    forbidden_seats,
    needs_balancing,
    seat_draw,
)
from ncpc.audit import Actor, audit_record
from ncpc.errors import ConcurrentChange, NcpcError
from ncpc.money import money_display

CLOCK_ACTIONS = ("start", "pause", "resume", "skip", "back")
# Seats that hold chips: players still in, and absent players (posted and folded) until their chips come off.
SEATED_STATUSES = (Attendance.Status.EXPECTED, Attendance.Status.CALLED_IN, Attendance.Status.ABSENT)


def _now(now: dt.datetime | None) -> dt.datetime:
    return now or timezone.now()


def _structure(event: Event) -> tuple[BlindLevelData, ...]:
    structure = selectors.season_rules(event.season).blind_structure
    if not structure:
        raise NcpcError(
            f"The {event.season} rules have no blind structure: enter it on the rules page first."
        )
    return structure


def _night_lock(*, event: Event) -> Night:
    Night.objects.get_or_create(event_id=event.pk)
    return Night.objects.select_for_update().select_related("event__season").get(event_id=event.pk)


def _check(*, seen: int, current: int, what: str) -> None:
    if seen != current:
        raise ConcurrentChange(
            f"The {what} changed meanwhile (another officer or screen did something). Reload and try again."
        )


def _not_final(event: Event) -> None:
    if event.status == Event.Status.FINAL:
        raise NcpcError("The results of this event are final: the night is over.")


def clock_state_of(night: Night | None) -> ClockState:
    if night is None:
        return ClockState()
    return ClockState(
        started_at=night.started_at,
        paused_at=night.paused_at,
        paused_seconds=night.paused_seconds,
        shift_seconds=night.shift_seconds,
    )


# ---------------------------------------------------------------------------------------------------------
# The clock


@transaction.atomic
def clock_command(
    *, event: Event, action: str, version: int, actor: Actor, now: dt.datetime | None = None
) -> Night:
    """Start, pause, resume, skip a level or go back one; refused when the page's clock version is stale."""
    if action not in CLOCK_ACTIONS:
        raise NcpcError("Unknown clock action.")
    night = _night_lock(event=event)
    _not_final(night.event)
    _check(seen=version, current=night.clock_version, what="clock")
    now = _now(now)
    structure = _structure(night.event)
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


def level_label(view: ClockView) -> str:
    if view.kind == "break":
        return "break"
    return f"level {view.level_number} ({view.small_blind}/{view.big_blind}{f' ante {view.ante}' if view.ante else ''})"


def _mmss(seconds: int | None) -> str:
    if seconds is None:
        return "no limit"
    return f"{seconds // 60}:{seconds % 60:02d}"


# ---------------------------------------------------------------------------------------------------------
# The seat draw (§5.8, §6.4)


def _seat_key(attendance_id: int) -> str:
    return str(attendance_id)


@transaction.atomic
def seats_draw(
    *,
    event: Event,
    version: int,
    actor: Actor,
    confirm_redraw: bool = False,
    rng: random.Random | None = None,
) -> list[NightTable]:
    """Random seats for everyone expected tonight; absent (and called-in) members are spread evenly.

    A redraw replaces the seats and needs ``confirm_redraw``; once the clock has started it is refused (a
    first draw is not: the clock may have been started before the seats were drawn).
    """
    night = _night_lock(event=event)
    event = night.event
    _not_final(event)
    _check(seen=version, current=night.seats_version, what="seating")
    drawn = event.night_tables.exists()
    # A redraw moves players who are playing: never once the clock runs. A first draw after an early start of
    # the clock (an officer tapped Start first) seats who is still in.
    if drawn and night.started_at is not None:
        raise NcpcError("The clock has started: the seats stay as drawn (a redraw is only possible before).")
    if drawn and not confirm_redraw:
        raise NcpcError("The seats are drawn already: confirm to draw them again.")
    rows = list(Attendance.objects.filter(event=event, status__in=SEATED_STATUSES, elimination__isnull=True))
    if not rows:
        raise NcpcError("Nobody is expected tonight: set the attendance first.")
    present = [_seat_key(a.pk) for a in rows if a.status == Attendance.Status.EXPECTED]
    absent = [_seat_key(a.pk) for a in rows if a.status != Attendance.Status.EXPECTED]
    rules = selectors.season_rules(event.season)
    rng = rng or random.SystemRandom()
    seats = seat_draw(
        present=present,
        absent=absent,
        table_size=rules.table_size,
        final_table_size=rules.final_table_size,
        rng=rng,
    )
    seat_count = max(rules.table_size, rules.final_table_size, *(s.seat for s in seats))
    event.night_tables.all().delete()
    tables: dict[int, NightTable] = {}
    for number in sorted({s.table for s in seats}):
        occupied = sorted(s.seat for s in seats if s.table == number)
        tables[number] = NightTable.objects.create(
            event=event, number=number, seat_count=seat_count, button=rng.choice(occupied)
        )
    NightSeat.objects.bulk_create(
        NightSeat(table=tables[s.table], attendance_id=int(s.player), seat=s.seat) for s in seats
    )
    night.seats_drawn_at = timezone.now()
    night.seed = secrets.token_hex(16)
    night.seats_version += 1
    night.save()
    audit_record(
        actor=actor,
        action="night.redraw" if drawn else "night.draw",
        target=event,
        summary=f"{'Redrew' if drawn else 'Drew'} the seats of {event}: {len(seats)} players at "
        f"{len(tables)} table(s), {len(absent)} absent or late spread over them",
        data={"seats": [[s.table, s.seat, int(s.player)] for s in seats]},
    )
    return list(tables.values())


@transaction.atomic
def button_set(*, event: Event, table_number: int, seat: int, version: int, actor: Actor) -> NightTable:
    """Record where the button is at a table (the dealer moves it; the app needs it to keep moved players out
    of the seats between the button and the small blind)."""
    night = _night_lock(event=event)
    _not_final(night.event)
    _check(seen=version, current=night.seats_version, what="seating")
    table = NightTable.objects.filter(event=night.event, number=table_number).first()
    if table is None:
        raise NcpcError("Unknown table.")
    if not 1 <= seat <= table.seat_count:
        raise NcpcError(f"Table {table.number} has seats 1 to {table.seat_count}.")
    old = table.button
    table.button = seat
    table.save(update_fields=["button"])
    night.seats_version += 1
    night.save(update_fields=["seats_version"])
    audit_record(
        actor=actor,
        action="night.button",
        target=night.event,
        summary=f"Button at table {table.number} of {night.event}: seat {old or '–'} → seat {seat}",
    )
    return table


@transaction.atomic
def seat_add(
    *, event: Event, attendance_id: int, version: int, actor: Actor, rng: random.Random | None = None
) -> NightSeat:
    """Seat a player who has no seat yet (e.g. set to play after the draw): a random empty seat at the smallest
    table, never between the button and the small blind."""
    night = _night_lock(event=event)
    event = night.event
    _not_final(event)
    _check(seen=version, current=night.seats_version, what="seating")
    row = (
        Attendance.objects.filter(
            event=event, pk=attendance_id, status__in=SEATED_STATUSES, elimination__isnull=True
        )
        .select_related("membership__person")
        .first()
    )
    if row is None:
        raise NcpcError("That player is not playing tonight (or is out).")
    if NightSeat.objects.filter(attendance=row).exists():
        raise NcpcError(f"{row.player_name} has a seat already.")
    tables = calculator_tables(event=event)
    for table in sorted(tables, key=lambda t: (t.size, t.number)):
        free = allowed_empty_seats(table)
        if free:
            break
    else:
        raise NcpcError(
            "No free seat outside the button–small blind gap: wait for the button, then try again."
        )
    seat = NightSeat.objects.create(
        table=NightTable.objects.get(event=event, number=table.number),
        attendance=row,
        seat=(rng or random.SystemRandom()).choice(free),
    )
    night.seats_version += 1
    night.save(update_fields=["seats_version"])
    audit_record(
        actor=actor,
        action="night.seat_add",
        target=event,
        summary=f"{row.player_name} seated at table {table.number} seat {seat.seat} of {event}",
    )
    return seat


# ---------------------------------------------------------------------------------------------------------
# Balancing (§6.6) and the final table (§6.7)


def _seated_rows(event: Event) -> list[NightSeat]:
    """Seats that hold chips now: players still in and absent players whose chips are still on the table."""
    return list(
        NightSeat.objects.filter(
            table__event=event, attendance__status__in=SEATED_STATUSES, attendance__elimination__isnull=True
        ).select_related("table", "attendance__membership__person")
    )


def calculator_tables(*, event: Event, seated: list[NightSeat] | None = None) -> list[Table]:
    seated = _seated_rows(event) if seated is None else seated
    away = frozenset(_seat_key(r.attendance_id) for r in seated if r.attendance.status in Attendance.AWAY)
    tables = {
        t.number: Table(number=t.number, button=t.button, seat_count=t.seat_count, away=away)
        for t in event.night_tables.all()
    }
    for row in seated:
        tables[row.table.number].seats[row.seat] = _seat_key(row.attendance_id)
    return [tables[n] for n in sorted(tables)]


def _proposal_rng(*, night: Night, tables: list[Table]) -> random.Random:
    """Random, but the same while the tables stay as they are, so every reload shows the same move."""
    signature = ";".join(
        f"{t.number}:{t.button}:" + ",".join(f"{s}={p}" for s, p in sorted(t.seats.items())) for t in tables
    )
    return random.Random(f"{night.seed}|{signature}")  # nosec B311 - the seed itself is secret and random


def balance_proposal(*, night: Night, tables: list[Table]) -> list[Move]:
    if not needs_balancing(tables=tables):
        return []
    return balance_moves(tables=tables, rng=_proposal_rng(night=night, tables=tables))


@transaction.atomic
def balance_apply(
    *, event: Event, player: int, to_table: int, to_seat: int, version: int, actor: Actor
) -> NightSeat:
    """Move the player the app drew to the seat it chose (the first of the proposed moves)."""
    night = _night_lock(event=event)
    event = night.event
    _not_final(event)
    _check(seen=version, current=night.seats_version, what="seating")
    tables = calculator_tables(event=event)
    moves = balance_proposal(night=night, tables=tables)
    if not moves:
        raise NcpcError(
            "The tables are in balance (or every empty seat is before the small blind): no move now."
        )
    move = moves[0]
    if (move.player, move.to_table, move.to_seat) != (_seat_key(player), to_table, to_seat):
        raise ConcurrentChange("The tables changed since the page was shown: reload to see the move now due.")
    target = next(t for t in tables if t.number == move.to_table)
    if move.to_seat in target.seats or move.to_seat in forbidden_seats(target):
        raise NcpcError("That seat is taken or between the button and the small blind.")  # never by design
    row = NightSeat.objects.select_related("attendance__membership__person").get(attendance_id=player)
    row.table = NightTable.objects.get(event=event, number=move.to_table)
    row.seat = move.to_seat
    row.save(update_fields=["table", "seat"])
    NightMove.objects.create(
        event=event,
        after_hand=newest_hand(event=event),
        attendance_id=player,
        from_table=move.from_table,
        from_seat=move.from_seat,
        to_table=move.to_table,
        to_seat=move.to_seat,
    )
    night.seats_version += 1
    night.save(update_fields=["seats_version"])
    audit_record(
        actor=actor,
        action="night.move",
        target=event,
        summary=f"Balancing at {event}: {row.attendance.player_name} from table {move.from_table} seat "
        f"{move.from_seat} to table {move.to_table} seat {move.to_seat}",
        data={"attendance": player, "from": [move.from_table, move.from_seat], "to": [to_table, to_seat]},
    )
    return row


def newest_hand(*, event: Event) -> int | None:
    """The newest hand that put someone out (the bust a table move follows), None before anyone is out."""
    hand: int | None = event.eliminations.aggregate(m=Max("hand"))["m"]
    return hand


def seating_snapshot(*, event: Event) -> dict[str, Any]:
    """The tables and every seat as they are (kept with the final-table draw, so an undo can restore them)."""
    return {
        "tables": [[t.number, t.seat_count, t.button, t.final] for t in event.night_tables.all()],
        "seats": [
            [s.attendance_id, s.table.number, s.seat]
            for s in NightSeat.objects.filter(table__event=event).select_related("table")
        ],
    }


def final_table_is_due(*, event: Event, tables: list[Table]) -> bool:
    in_use = [t for t in tables if t.seats]
    return final_table_due(
        players_left=sum(t.size for t in in_use),
        tables_in_use=len(in_use),
        final_table_size=selectors.season_rules(event.season).final_table_size,
    )


@transaction.atomic
def final_table_make(
    *, event: Event, version: int, actor: Actor, rng: random.Random | None = None
) -> NightTable:
    """Bring the players left to the final table with a fresh random draw for seats and the button (§6.7)."""
    night = _night_lock(event=event)
    event = night.event
    _not_final(event)
    _check(seen=version, current=night.seats_version, what="seating")
    seated = _seated_rows(event)
    tables = calculator_tables(event=event, seated=seated)
    size = selectors.season_rules(event.season).final_table_size
    if not final_table_is_due(event=event, tables=tables):
        raise NcpcError(
            f"The final table starts when {size} or fewer players are left at more than one table."
        )
    seats, button = final_table_draw(
        players=[_seat_key(r.attendance_id) for r in seated],
        final_table_size=size,
        rng=rng or random.SystemRandom(),
    )
    NightMove.objects.create(
        event=event,
        kind=NightMove.Kind.FINAL,
        after_hand=newest_hand(event=event),
        before=seating_snapshot(event=event),
    )
    event.night_tables.all().delete()
    table = NightTable.objects.create(event=event, number=1, seat_count=size, button=button, final=True)
    NightSeat.objects.bulk_create(
        NightSeat(table=table, attendance_id=int(s.player), seat=s.seat) for s in seats
    )
    night.final_table_at = timezone.now()
    night.seed = secrets.token_hex(16)
    night.seats_version += 1
    night.save()
    audit_record(
        actor=actor,
        action="night.final_table",
        target=event,
        summary=f"Final table of {event}: {len(seats)} players, fresh draw, button at seat {button}",
        data={"seats": [[s.seat, int(s.player)] for s in seats], "button": button},
    )
    return table


# ---------------------------------------------------------------------------------------------------------
# Late arrivals (§5.2, §6.3)


def late_arrival_seconds(*, event: Event) -> float | None:
    """Seconds of play after which absent players' chips come off (the end of level ``late_arrival_levels``)."""
    levels = selectors.season_rules(event.season).late_arrival_levels
    return late_arrival_deadline(structure=_structure(event), levels=levels)


def late_arrival_due(*, event: Event, night: Night | None, now: dt.datetime | None = None) -> bool:
    deadline = late_arrival_seconds(event=event)
    if night is None or night.started_at is None or deadline is None:
        return False
    return clock_elapsed(state=clock_state_of(night), now=_now(now)) >= deadline


def second_hour_over(*, event: Event, night: Night | None, now: dt.datetime | None = None) -> bool:
    """The second hour of play is over: a member who called in and has not arrived loses the chips (§15.5)."""
    deadline = late_arrival.second_hour_seconds(event=event)
    if night is None or night.started_at is None or deadline is None:
        return False
    return clock_elapsed(state=clock_state_of(night), now=_now(now)) >= deadline


def _late_arrival_not_yet(event: Event) -> str:
    level = selectors.season_rules(event.season).late_arrival_levels
    return f"Absent players' chips come off at the end of level {level} (§6.3), not before."


def _removable(*, row: Attendance, night: Night, now: dt.datetime | None) -> bool:
    if row.status == Attendance.Status.ABSENT:
        return late_arrival_due(event=night.event, night=night, now=now)
    return row.status == Attendance.Status.CALLED_IN and second_hour_over(
        event=night.event, night=night, now=now
    )


@transaction.atomic
def late_arrival_settle(
    *,
    event: Event,
    attendance_id: int,
    use_exemption: bool,
    version: int,
    actor: Actor,
    called_at: dt.datetime | None = None,
    now: dt.datetime | None = None,
) -> Attendance:
    """At the end of level ``late_arrival_levels`` an absent player's chips come off (no place, no points, no
    prize), unless they called in within the first hour and use their one exemption this season (``called_at``:
    when the call came, default now); they may then join during the second hour, after which their chips come
    off too if they have not arrived (SPEC §15.5)."""
    night = _night_lock(event=event)
    row = Attendance.objects.filter(event=night.event, pk=attendance_id).first()
    if row is None or row.status not in Attendance.AWAY:
        raise NcpcError("That player is not absent (any more).")
    if use_exemption:
        if row.status == Attendance.Status.CALLED_IN:
            raise NcpcError("That player's call is recorded already.")
        status = Attendance.Status.CALLED_IN
    else:
        if not _removable(row=row, night=night, now=now):
            if row.status == Attendance.Status.CALLED_IN:
                raise NcpcError(
                    "A member who called in may join until the end of the second hour of play (§6.3): "
                    "their chips come off only then."
                )
            raise NcpcError(_late_arrival_not_yet(night.event))
        status = Attendance.Status.CHIPS_REMOVED
    return attendance_services.attendance_set(
        event=night.event,
        attendance_id=attendance_id,
        status=status,
        version=version,
        actor=actor,
        called_at=called_at,
        now=now,
    )


@transaction.atomic
def late_arrivals_remove_all(
    *, event: Event, version: int, actor: Actor, now: dt.datetime | None = None
) -> int:
    """Remove the chips of every player still absent after the first hour, and of every member who called in
    and has not arrived after the second (after the officer has recorded any exemptions)."""
    night = _night_lock(event=event)
    if not late_arrival_due(event=night.event, night=night, now=now):
        raise NcpcError(_late_arrival_not_yet(night.event))
    rows = [
        row
        for row in Attendance.objects.filter(event=night.event, status__in=Attendance.AWAY).order_by("pk")
        if _removable(row=row, night=night, now=now)
    ]
    for row in rows:
        attendance_services.attendance_set(
            event=night.event,
            attendance_id=row.pk,
            status=Attendance.Status.CHIPS_REMOVED,
            version=version,
            actor=actor,
            now=now,
        )
        version += 1
    return len(rows)


# ---------------------------------------------------------------------------------------------------------
# Reads for the night pages


def night_of(*, event: Event) -> Night | None:
    return Night.objects.filter(event=event).first()


def clock_payload(*, event: Event, now: dt.datetime | None = None) -> dict[str, Any]:
    """What the clock page shows, as plain JSON values. ``seconds_left_exact`` lets every screen count down
    to the same instant between polls; ``server_time`` is the server's clock in milliseconds."""
    now = _now(now)
    night = night_of(event=event)
    structure = _structure(event)
    state = clock_state_of(night)
    view = clock_view(structure=structure, state=state, now=now)
    exact = None
    current = structure[view.index]
    if current.minutes is not None:
        end = level_starts(structure)[view.index] + current.minutes * 60
        exact = max(0.0, end - clock_elapsed(state=state, now=now))
    field_ = selectors.event_field(event=event)
    absent = list(
        Attendance.objects.filter(event=event, status=Attendance.Status.ABSENT)
        .select_related("membership__person")
        .order_by("membership__person__last_name", "membership__person__first_name", "pk")
    )
    levels = selectors.season_rules(event.season).late_arrival_levels
    deadline = late_arrival_deadline(structure=structure, levels=levels)
    return {
        "version": night.clock_version if night else 0,
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
        "prizes": prizes_payload(event=event),
    }


def prizes_payload(*, event: Event) -> dict[str, Any]:
    """The night's prize pool and the prize of each paid place, for the members on the roster on the event's
    date (§6.2; the amounts come from the season's payout table, which finance reads)."""
    count = len(hooks.event_roster(season=event.season, event_number=event.number))
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
    if level is None:
        return None
    return {
        "kind": level.kind,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "minutes": level.minutes,
        "note": level.note,
    }


@dataclass
class SeatLine:
    seat: int
    name: str = ""
    status: str = ""  # "", "absent", "called_in", or "empty"
    button: bool = False
    forbidden: bool = False
    left: list[str] = field(default_factory=list)  # players who sat here earlier and are out


@dataclass
class TableView:
    number: int
    final: bool
    button: int | None
    seat_count: int
    players: int
    lines: list[SeatLine]


@dataclass
class NightOverview:
    night: Night | None
    tables: list[TableView]
    unseated: list[Attendance]
    needs_balancing: bool
    next_move: Move | None
    move_names: dict[str, str]
    wait_for_button: bool
    final_table_due: bool
    players_seated: int


def night_overview(*, event: Event) -> NightOverview:
    night = night_of(event=event)
    seated = _seated_rows(event)
    tables = calculator_tables(event=event, seated=seated)
    everyone = list(
        NightSeat.objects.filter(table__event=event).select_related("table", "attendance__membership__person")
    )
    names = {_seat_key(r.attendance_id): r.attendance.player_name for r in everyone}
    statuses = {_seat_key(r.attendance_id): r.attendance.status for r in everyone}
    out: dict[tuple[int, int], list[str]] = {}
    seated_keys = {_seat_key(r.attendance_id) for r in seated}
    for r in everyone:
        if _seat_key(r.attendance_id) not in seated_keys:
            out.setdefault((r.table.number, r.seat), []).append(r.attendance.player_name)
    views = []
    for table, row in zip(tables, event.night_tables.all(), strict=True):
        blocked = forbidden_seats(table)
        lines = []
        for n in range(1, table.seat_count + 1):
            player = table.seats.get(n)
            status = (
                "empty" if player is None else ("" if statuses[player] == "expected" else statuses[player])
            )
            lines.append(
                SeatLine(
                    seat=n,
                    name=names.get(player, "") if player else "",
                    status=status,
                    button=table.button == n,
                    forbidden=n in blocked,
                    left=out.get((table.number, n), []),
                )
            )
        views.append(
            TableView(
                number=table.number,
                final=row.final,
                button=table.button,
                seat_count=table.seat_count,
                players=table.size,
                lines=lines,
            )
        )
    seated_ids = {r.attendance_id for r in everyone}
    unseated = (
        [
            a
            for a in selectors.event_attendances(event=event)
            if a.status in SEATED_STATUSES and not hasattr(a, "elimination") and a.pk not in seated_ids
        ]
        if tables
        else []
    )
    unbalanced = needs_balancing(tables=tables)
    moves = balance_proposal(night=night, tables=tables) if (night and unbalanced) else []
    return NightOverview(
        night=night,
        tables=views,
        unseated=unseated,
        needs_balancing=unbalanced,
        next_move=moves[0] if moves else None,
        move_names=names,
        wait_for_button=unbalanced and not moves,
        final_table_due=bool(tables) and final_table_is_due(event=event, tables=tables),
        players_seated=sum(t.size for t in tables),
    )
