"""The night console (issue 19): one screen for the officers running a tournament night.

The night's **version** is the three optimistic-concurrency counters it is made of — the results version of the
event (attendance, busts), the clock version and the seats version of the night — written ``"r.c.s"``. Every
open console asks for the state with the version it has and gets "unchanged" cheaply while nothing changed.
Each command still checks its own counter, so two officers never record the same bust twice. The commands are
the night's registry (``events.services.night_actions``); the undo of a bust is ``results.bust_undo``.

This is the read model of the night pages: ``night_overview`` (the tables, seat by seat, the next balancing
move, whether the final table is due) and ``console_state`` (everything the console shows, as JSON values).
"""

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from events import hooks, selectors
from events.models import Attendance, Event, Night, NightChange, NightMove, NightSeat, NightTable
from events.services.late_arrival import late_arrival_due, second_hour_over
from events.services.night import SEATED_STATUSES, NightRead, night_of, seat_key
from events.services.night_clock import clock_payload
from events.services.night_seating import (
    balance_proposal,
    calculator_tables,
    final_table_is_due,
    seated_rows,
)
from events.services.places import Bust, bust_places, hands_in_order
from events.services.results_mail_late import results_entered_late
from events.services.seating import Move, Table, forbidden_seats, needs_balancing
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError


def night_date_note(*, event: Event, doing: str = "", today: dt.date | None = None) -> str:
    """The confirmation asked before opening, drawing or starting the clock of a night not dated today (issue
    34): the first bust of a night dated later is refused (``results.bust_record``), so say it before the
    officers run the night. "" for a night dated today."""
    today = today or club_today()
    if event.date == today:
        return ""
    on = f"{event.date:%a %b} {event.date.day}"
    if event.date > today:
        note = (
            f"Event {event.number} is dated {on}, not today: its results cannot be entered before that day."
        )
    else:
        note = f"Event {event.number} was dated {on}, not today."
    return f"{note} {doing} anyway?" if doing else note


def night_version(*, event: Event) -> str:
    """``"results.clock.seats"``: changes whenever anything an open console shows changes (one query)."""
    row = (
        Event.objects.filter(pk=event.pk)
        .values("results_version", "night__clock_version", "night__seats_version")
        .first()
    )
    if row is None:
        return "0.0.0"
    return f"{row['results_version']}.{row['night__clock_version'] or 0}.{row['night__seats_version'] or 0}"


def changes_waiting(*, event: Event) -> int:
    """How many changes recorded offline wait for the Vice President (conflicts and refusals): the console's
    alert comes with its state, so every open console shows it within a poll (one query). A sync that parks a
    change moves no version of the night: the console sends the count it shows with ``since``."""
    return NightChange.objects.filter(event_id=event.pk, status__in=NightChange.OPEN).count()


# ---------------------------------------------------------------------------------------------------------
# The tables as the night pages and the console show them


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
    seated: list[NightSeat]  # the seats that hold chips now (``seated_rows``)
    tables: list[TableView]
    unseated: list[Attendance]
    needs_balancing: bool
    next_move: Move | None
    move_names: dict[str, str]
    wait_for_button: bool
    final_table_due: bool
    players_seated: int


def night_overview(*, event: Event, read: NightRead | None = None) -> NightOverview:
    """The tables seat by seat, who has no seat, the next balancing move. ``read``: the night's rows the
    console already read."""
    night = read.night if read is not None else night_of(event=event)
    seated = seated_rows(event)
    table_rows = list(event.night_tables.all())
    tables = calculator_tables(event=event, seated=seated, table_rows=table_rows)
    everyone = list(
        NightSeat.objects.filter(table__event=event).select_related("table", "attendance__membership__person")
    )
    names = {seat_key(r.attendance_id): r.attendance.player_name for r in everyone}
    statuses = {seat_key(r.attendance_id): r.attendance.status for r in everyone}
    out = _seats_left(everyone=everyone, seated=seated)
    views = [
        _table_view(table=table, row=row, names=names, statuses=statuses, out=out)
        for table, row in zip(tables, sorted(table_rows, key=lambda t: t.number), strict=True)
    ]
    unseated = _unseated(event=event, everyone=everyone, rows=read.rows if read else None) if tables else []
    unbalanced = needs_balancing(tables=tables)
    moves = balance_proposal(night=night, tables=tables) if (night and unbalanced) else []
    return NightOverview(
        night=night,
        seated=seated,
        tables=views,
        unseated=unseated,
        needs_balancing=unbalanced,
        next_move=moves[0] if moves else None,
        move_names=names,
        wait_for_button=unbalanced and not moves,
        final_table_due=bool(tables) and final_table_is_due(event=event, tables=tables),
        players_seated=sum(t.size for t in tables),
    )


def _seats_left(*, everyone: list[NightSeat], seated: list[NightSeat]) -> dict[tuple[int, int], list[str]]:
    """Who is out, by the (table, seat) they left."""
    out: dict[tuple[int, int], list[str]] = {}
    seated_keys = {seat_key(r.attendance_id) for r in seated}
    for r in everyone:
        if seat_key(r.attendance_id) not in seated_keys:
            out.setdefault((r.table.number, r.seat), []).append(r.attendance.player_name)
    return out


def _table_view(
    *,
    table: Table,
    row: NightTable,
    names: dict[str, str],
    statuses: dict[str, str],
    out: dict[tuple[int, int], list[str]],
) -> TableView:
    """One table as the night page shows it: a line for each seat."""
    blocked = forbidden_seats(table)
    lines = []
    for n in range(1, table.seat_count + 1):
        player = table.seats.get(n)
        status = "empty" if player is None else ("" if statuses[player] == "expected" else statuses[player])
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
    return TableView(
        number=table.number,
        final=row.final,
        button=table.button,
        seat_count=table.seat_count,
        players=table.size,
        lines=lines,
    )


def _unseated(*, event: Event, everyone: list[NightSeat], rows: list[Attendance] | None) -> list[Attendance]:
    """Who is expected to play and still in but has no seat (arrived after the draw)."""
    seated_ids = {r.attendance_id for r in everyone}
    return [
        a
        for a in (selectors.event_attendances(event=event) if rows is None else rows)
        if a.status in SEATED_STATUSES and not hasattr(a, "elimination") and a.pk not in seated_ids
    ]


# ---------------------------------------------------------------------------------------------------------
# What the console shows: plain JSON values (the page renders them, the state endpoint sends them)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def clock_text(seconds: float | None) -> str:
    """Time left as the clock shows it: 12:05, 1:02:05, or ∞ for the last level."""
    if seconds is None:
        return "∞"
    total = int(seconds)
    hours, rest = divmod(total, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def console_state(*, event: Event, now: dt.datetime | None = None, fresh: bool = True) -> dict[str, Any]:
    """Everything the night console shows, as JSON values; ``version`` as ``night_version``. ``fresh=False``:
    ``event`` was read by this request with its season and night and nothing has changed them since (a page
    or poll that only reads, ``selectors.event_by_name``); otherwise they are read again."""
    now = now or timezone.now()
    # The event and its night first, in one query: the version is made of theirs, so it is never newer than
    # what the rest of the state shows (a change in between is seen by the next poll).
    if fresh:
        event = Event.objects.select_related("season", "night").get(pk=event.pk)
    night = _night_read(event)
    roster = list(hooks.event_roster(season=event.season, event_number=event.number))
    rows = selectors.event_attendances(event=event)
    read = NightRead(night=night, rows=rows, roster=roster)
    clock, clock_error = _clock_json(event=event, now=now, read=read)
    overview = night_overview(event=event, read=read)
    playing = [r for r in rows if r.is_playing]
    still_in = [r for r in playing if not hasattr(r, "elimination")]
    busts = selectors.event_busts(event=event)
    tables = _tables_json(overview=overview)
    have = {r.membership_id for r in rows}
    return {
        "version": f"{event.results_version}.{night.clock_version if night else 0}.{night.seats_version if night else 0}",
        "versions": {
            "results": event.results_version,
            "clock": night.clock_version if night else 0,
            "seats": night.seats_version if night else 0,
        },
        "final": event.status == Event.Status.FINAL,
        "too_early": club_today() < event.date,
        "date_note": {
            "draw": night_date_note(event=event, doing="Draw the seats"),
            "clock": night_date_note(event=event, doing="Start the clock"),
        },
        "clock": clock,
        "clock_error": clock_error,
        "clock_text": clock_text(clock["seconds_left"]) if clock else "",
        "counts": _counts_json(rows=rows),
        "listed": len(rows),
        "away": _away_json(event=event, night=night, rows=rows, now=now),
        "unseated": [{"id": a.pk, "name": a.player_name} for a in overview.unseated],
        "drawn": bool(tables),
        "clock_started": bool(night and night.started_at),
        "tables": tables,
        "move": _move_json(overview=overview),
        "needs_balancing": overview.needs_balancing,
        "wait_for_button": overview.wait_for_button,
        "final_table_due": overview.final_table_due,
        "final_table_size": selectors.season_rules(event.season).final_table_size,
        "players_seated": overview.players_seated,
        "still_in": [{"id": r.pk, "name": r.player_name} for r in still_in],
        "entrants": len(playing),
        "busts": _busts_json(event=event, rows=rows, playing=playing, busts=busts),
        "winner": still_in[0].player_name if len(still_in) == 1 and busts else "",
        # Finishing tonight e-mails the results; a night entered after the fact does not (results_mail_late).
        "results_email": event.season.results_email
        and not results_entered_late(event_date=event.date, final_on=club_today()),
        "conflicts": changes_waiting(event=event),
        # "Open the night" lists the members on the roster who have no seat yet (none once final)
        "seats_to_list": 0
        if event.status == Event.Status.FINAL
        else sum(1 for m in roster if m.pk not in have),
    }


def _night_read(event: Event) -> Night | None:
    """The night read with its event (``select_related("night")``), or None before the night has one."""
    try:
        return event.night
    except Night.DoesNotExist:
        return None


def _clock_json(*, event: Event, now: dt.datetime, read: NightRead) -> tuple[dict[str, Any] | None, str]:
    """The clock as the TV shows it, or None and why not (no blind structure yet, …)."""
    try:
        return clock_payload(event=event, now=now, read=read), ""
    except NcpcError as exc:
        return None, str(exc)


def _counts_json(*, rows: list[Attendance]) -> list[dict[str, Any]]:
    """How many seats of each attendance status, in the order of the statuses."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.status] = counts.get(r.status, 0) + 1
    return [
        {"status": value, "label": label, "count": counts[value]}
        for value, label in Attendance.Status.choices
        if counts.get(value)
    ]


def _away_json(*, event: Event, night: Night | None, rows: list[Attendance], now: dt.datetime) -> list[dict]:
    """The players away tonight (absent, or called in), with what the console may do for each now: arrive
    (absent in the first hour, called in within the second), call in (once a season), remove the chips."""
    first_over = late_arrival_due(event=event, night=night, now=now)
    second_over = second_hour_over(event=event, night=night, now=now)
    final = event.status == Event.Status.FINAL
    away = []
    used_at = selectors.exemptions_used_at(
        event=event, membership_ids=[r.membership_id for r in rows if r.status in Attendance.AWAY]
    )
    for r in rows:
        if r.status not in Attendance.AWAY:
            continue
        used = used_at.get(r.membership_id)
        absent = r.status == Attendance.Status.ABSENT
        away.append(
            {
                "id": r.pk,
                "name": r.player_name,
                "status": r.status,
                "called_in_at": f"{timezone.localtime(r.called_in_at):%H:%M}" if r.called_in_at else "",
                "exemption_used_at": used.number if used else None,
                "can_arrive": not final and ((absent and not first_over) or (not absent and not second_over)),
                "can_call": not final and absent and used is None and not first_over,
                "can_remove": not final and ((absent and first_over) or (not absent and second_over)),
            }
        )
    return away


def _busts_json(
    *, event: Event, rows: list[Attendance], playing: list[Attendance], busts: list[Bust[int]]
) -> list[dict[str, Any]]:
    """The busts by hand in the night's order (the order of the taps, SPEC §17.8), newest tap first, each with
    its tap time (club time), its players' places and whether table moves followed it (the moves an undo of it
    takes back)."""
    by_id = {r.pk: r for r in rows}
    try:
        places = {p.player: p.place for p in bust_places(entrants=[r.pk for r in playing], busts=busts)}
    except NcpcError:
        places = {}
    moved_after = set(
        NightMove.objects.filter(event=event, after_hand__isnull=False).values_list("after_hand", flat=True)
    )
    return [
        {
            "hand": hand[0].hand,
            "tapped_at": f"{timezone.localtime(hand[0].tapped_at):%H:%M:%S}" if hand[0].tapped_at else "",
            "players": [
                {
                    "id": b.player,
                    "name": by_id[b.player].player_name,
                    "place": _ordinal(places[b.player]) if b.player in places else "",
                    "abuse": b.removed_for_abuse,
                }
                for b in hand
            ],
            "moves": hand[0].hand in moved_after,
        }
        for hand in reversed(hands_in_order(busts=busts))
    ]


def _tables_json(*, overview: NightOverview) -> list[dict[str, Any]]:
    """The tables seat by seat, each seat with the player who holds chips there (the console's tap targets)."""
    seat_of = {
        (s.table.number, s.seat): s.attendance_id
        for s in overview.seated
        if s.attendance.status in Attendance.PLAYING
    }
    return [
        {
            "number": t.number,
            "final": t.final,
            "button": t.button,
            "players": t.players,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "status": s.status,
                    "button": s.button,
                    "forbidden": s.forbidden,
                    "left": s.left,
                    "player": seat_of.get((t.number, s.seat)),
                }
                for s in t.lines
            ],
        }
        for t in overview.tables
    ]


def _move_json(*, overview: NightOverview) -> dict[str, Any] | None:
    """The next balancing move the app proposes, None when the tables are in balance."""
    move = overview.next_move
    if move is None:
        return None
    return {
        "player": int(move.player),
        "name": overview.move_names.get(move.player, ""),
        "from_table": move.from_table,
        "from_seat": move.from_seat,
        "to_table": move.to_table,
        "to_seat": move.to_seat,
    }
