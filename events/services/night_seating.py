"""The seats of the night (SPEC §4, bylaws §5.8, §6.4, §6.6, §6.7): the seat draw, the button, moves between
tables (the balancing move the app proposes, or a move made at the tables and recorded offline) and the final
table. The rules are the pure calculators in ``events.services.seating``; this module stores their inputs and
applies their answers."""

import random
import secrets
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from events import selectors
from events.models import Attendance, Event, Night, NightMove, NightSeat, NightTable
from events.services.night import SEATED_STATUSES, night_lock, not_final, seat_key, version_check
from events.services.seating import (
    Move,
    Seat,
    Table,
    allowed_empty_seats,
    balance_moves,
    final_table_draw,
    final_table_due,
    forbidden_seats,
    needs_balancing,
    seat_draw,
)
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import ConcurrentChange, NcpcError


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
    night = night_lock(event=event)
    event = night.event
    not_final(event)
    version_check(seen=version, current=night.seats_version, what="seating")
    drawn = event.night_tables.exists()
    _redraw_check(night=night, drawn=drawn, confirm_redraw=confirm_redraw)
    rows = list(Attendance.objects.filter(event=event, status__in=SEATED_STATUSES, elimination__isnull=True))
    if not rows:
        raise NcpcError("Nobody is expected tonight: set the attendance first.")
    present = [seat_key(a.pk) for a in rows if a.status == Attendance.Status.EXPECTED]
    absent = [seat_key(a.pk) for a in rows if a.status != Attendance.Status.EXPECTED]
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
    tables = _drawn_tables_create(event=event, seats=seats, seat_count=seat_count, rng=rng)
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


def _redraw_check(*, night: Night, drawn: bool, confirm_redraw: bool) -> None:
    """Refuse a redraw once the clock runs, or one not confirmed."""
    # A redraw moves players who are playing: never once the clock runs. A first draw after an early start of
    # the clock (an officer tapped Start first) seats who is still in.
    if drawn and night.started_at is not None:
        raise NcpcError("The clock has started: the seats stay as drawn (a redraw is only possible before).")
    if drawn and not confirm_redraw:
        raise NcpcError("The seats are drawn already: confirm to draw them again.")


def _drawn_tables_create(
    *, event: Event, seats: list[Seat], seat_count: int, rng: random.Random
) -> dict[int, NightTable]:
    """Replace the night's tables and seats with the drawn ones (a random button at each table), by number."""
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
    return tables


@transaction.atomic
def button_set(*, event: Event, table_number: int, seat: int, version: int, actor: Actor) -> NightTable:
    """Record where the button is at a table (the dealer moves it; the app needs it to keep moved players out
    of the seats between the button and the small blind)."""
    night = night_lock(event=event)
    not_final(night.event)
    version_check(seen=version, current=night.seats_version, what="seating")
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
    night = night_lock(event=event)
    event = night.event
    not_final(event)
    version_check(seen=version, current=night.seats_version, what="seating")
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


def seated_rows(event: Event) -> list[NightSeat]:
    """Seats that hold chips now: players still in and absent players whose chips are still on the table."""
    return list(
        NightSeat.objects.filter(
            table__event=event, attendance__status__in=SEATED_STATUSES, attendance__elimination__isnull=True
        ).select_related("table", "attendance__membership__person")
    )


def calculator_tables(
    *, event: Event, seated: list[NightSeat] | None = None, table_rows: list[NightTable] | None = None
) -> list[Table]:
    seated = seated_rows(event) if seated is None else seated
    away = frozenset(seat_key(r.attendance_id) for r in seated if r.attendance.status in Attendance.AWAY)
    tables = {
        t.number: Table(number=t.number, button=t.button, seat_count=t.seat_count, away=away)
        for t in (event.night_tables.all() if table_rows is None else table_rows)
    }
    for row in seated:
        tables[row.table.number].seats[row.seat] = seat_key(row.attendance_id)
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
def seat_move(
    *,
    event: Event,
    attendance_id: int,
    to_table: int,
    to_seat: int,
    version: int,
    actor: Actor,
    proposed: bool = True,
) -> NightSeat:
    """Move a player still in to another seat: the one move command of the night.

    ``proposed`` (the console and the night page): the move must be the first balancing move the app proposes
    (§6.6); it is kept (``NightMove``) so that undoing the bust before it takes it back. Otherwise (a change
    recorded offline) the move was made at the tables while the device could not reach the server: any
    empty seat of the night will do.
    """
    night = night_lock(event=event)
    event = night.event
    not_final(event)
    version_check(seen=version, current=night.seats_version, what="seating")
    tables = calculator_tables(event=event)
    if proposed:
        _proposed_move_check(
            night=night, tables=tables, attendance_id=attendance_id, to_table=to_table, to_seat=to_seat
        )
    row = _moving_seat(event=event, attendance_id=attendance_id)
    table = _move_target(
        event=event, tables=tables, attendance_id=attendance_id, to_table=to_table, to_seat=to_seat
    )
    before = (row.table.number, row.seat)
    row.table, row.seat = table, to_seat
    row.save(update_fields=["table", "seat"])
    if proposed:
        NightMove.objects.create(
            event=event,
            after_hand=newest_hand(event=event),
            attendance_id=attendance_id,
            from_table=before[0],
            from_seat=before[1],
            to_table=to_table,
            to_seat=to_seat,
        )
    night.seats_version += 1
    night.save(update_fields=["seats_version"])
    _move_audit(actor=actor, event=event, row=row, before=before, proposed=proposed)
    return row


def _proposed_move_check(
    *, night: Night, tables: list[Table], attendance_id: int, to_table: int, to_seat: int
) -> None:
    """Refuse a move that is not the first balancing move the app proposes now (§6.6)."""
    moves = balance_proposal(night=night, tables=tables)
    if not moves:
        raise NcpcError(
            "The tables are in balance (or every empty seat is before the small blind): no move now."
        )
    move = moves[0]
    if (move.player, move.to_table, move.to_seat) != (seat_key(attendance_id), to_table, to_seat):
        raise ConcurrentChange("The tables changed since the page was shown: reload to see the move now due.")
    target = next(t for t in tables if t.number == move.to_table)
    if move.to_seat in target.seats or move.to_seat in forbidden_seats(target):
        raise NcpcError("That seat is taken or between the button and the small blind.")  # never by design


def _moving_seat(*, event: Event, attendance_id: int) -> NightSeat:
    """The seat of the player who moves, who must still be in."""
    row = (
        NightSeat.objects.filter(
            table__event=event,
            attendance_id=attendance_id,
            attendance__status__in=SEATED_STATUSES,
            attendance__elimination__isnull=True,
        )
        .select_related("table", "attendance__membership__person")
        .first()
    )
    if row is None:
        raise NcpcError("That player has no seat tonight, or is out.")
    return row


def _move_target(
    *, event: Event, tables: list[Table], attendance_id: int, to_table: int, to_seat: int
) -> NightTable:
    """The table moved to, once the seat is checked: it exists there and nobody else sits in it."""
    table = NightTable.objects.filter(event=event, number=to_table).first()
    if table is None:
        raise NcpcError(f"There is no table {to_table} tonight.")
    if not 1 <= to_seat <= table.seat_count:
        raise NcpcError(f"Table {table.number} has seats 1 to {table.seat_count}.")
    taken = next((t.seats.get(to_seat) for t in tables if t.number == to_table), None)
    if taken is not None and taken != seat_key(attendance_id):
        name = Attendance.objects.filter(pk=int(taken)).select_related("membership__person").get().player_name
        raise NcpcError(f"Table {table.number} seat {to_seat} is taken by {name}.")
    return table


def _move_audit(
    *, actor: Actor, event: Event, row: NightSeat, before: tuple[int, int], proposed: bool
) -> None:
    """The audit row of a move, proposed by the app or recorded offline."""
    name = row.attendance.player_name
    to_table, to_seat = row.table.number, row.seat
    audit_record(
        actor=actor,
        action="night.move",
        target=event,
        summary=(
            f"Balancing at {event}: {name} from table {before[0]} seat {before[1]} to table {to_table} "
            f"seat {to_seat}"
            if proposed
            else f"Recorded offline: {name} from table {before[0]} seat {before[1]} to table {to_table} "
            f"seat {to_seat} at {event}"
        ),
        data={"attendance": row.attendance_id, "from": list(before), "to": [to_table, to_seat]},
    )


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


def _seats_taken(*, event: Event) -> set[tuple[int, int]]:
    """(table, seat) of every seat holding chips now."""
    return {
        (s.table.number, s.seat)
        for s in NightSeat.objects.filter(
            table__event=event, attendance__status__in=SEATED_STATUSES, attendance__elimination__isnull=True
        ).select_related("table")
    }


def seating_restore(*, event: Event, before: dict) -> None:
    """Put the tables and seats back as ``seating_snapshot`` kept them (an undone final table)."""
    event.night_tables.all().delete()
    tables = {
        number: NightTable.objects.create(
            event=event, number=number, seat_count=seat_count, button=button, final=final
        )
        for number, seat_count, button, final in before.get("tables", [])
    }
    existing = set(Attendance.objects.filter(event=event).values_list("pk", flat=True))
    NightSeat.objects.bulk_create(
        NightSeat(table=tables[table], attendance_id=attendance, seat=seat)
        for attendance, table, seat in before.get("seats", [])
        if table in tables and attendance in existing
    )


def move_revert(*, event: Event, move: NightMove) -> bool:
    """Take a balancing move back when the player still sits where it put them and their old seat is free."""
    if move.attendance_id is None or move.from_table is None:
        return False
    row = NightSeat.objects.filter(attendance_id=move.attendance_id).select_related("table").first()
    if row is None or (row.table.number, row.seat) != (move.to_table, move.to_seat):
        return False
    table = NightTable.objects.filter(event=event, number=move.from_table).first()
    if table is None or (move.from_table, move.from_seat) in _seats_taken(event=event):
        return False
    row.table, row.seat = table, move.from_seat or 1
    row.save(update_fields=["table", "seat"])
    return True


def player_reseat(*, event: Event, attendance: Attendance, rng: random.Random) -> str:
    """A player back in after an undo: their own seat when nobody else sits there, else a free seat at the
    smallest table (never between the button and the small blind); "" when no seat is free (the console then
    offers to seat them)."""
    row = NightSeat.objects.filter(attendance=attendance).select_related("table").first()
    if row is not None:
        clash = (
            NightSeat.objects.filter(
                table=row.table,
                seat=row.seat,
                attendance__status__in=SEATED_STATUSES,
                attendance__elimination__isnull=True,
            )
            .exclude(pk=row.pk)
            .exists()
        )
        if not clash:
            return f"table {row.table.number} seat {row.seat}"
        row.delete()
    for table in sorted(calculator_tables(event=event), key=lambda t: (t.size, t.number)):
        free = allowed_empty_seats(table)
        if free:
            seat = rng.choice(free)
            NightSeat.objects.create(
                attendance=attendance,
                table=NightTable.objects.get(event=event, number=table.number),
                seat=seat,
            )
            return f"table {table.number} seat {seat}"
    return ""


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
    night = night_lock(event=event)
    event = night.event
    not_final(event)
    version_check(seen=version, current=night.seats_version, what="seating")
    seated = seated_rows(event)
    tables = calculator_tables(event=event, seated=seated)
    size = selectors.season_rules(event.season).final_table_size
    if not final_table_is_due(event=event, tables=tables):
        raise NcpcError(
            f"The final table starts when {size} or fewer players are left at more than one table."
        )
    seats, button = final_table_draw(
        players=[seat_key(r.attendance_id) for r in seated],
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
