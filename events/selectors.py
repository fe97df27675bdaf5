"""Reads of seasons and events that pages and other apps share."""

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from operator import itemgetter
from typing import Any

from django.db import models
from django.db.models.functions import Cast

from events import hooks
from events.models import (
    Attendance,
    BlindLevel,
    DuesInstallment,
    Elimination,
    Event,
    PayoutRow,
    Season,
    WsopRow,
)
from events.placings import Placing
from events.rules import BlindLevelData, PayoutRowData, SeasonRules, WsopRowData
from events.services.places import Bust, points_for
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.middleware import request_memo
from ncpc.core.money import quantize

_RULE_COLUMNS = ("k", "n", "i", "m1", "m2", "m3", "m4", "w1", "w2", "w3", "w4", "t1", "t2")


def _rule_rows(
    season_id: int,
    model: type[models.Model],
    kind: str,
    number: str,
    money: Sequence[str] = (),
    whole: Sequence[str] = (),
    text: Sequence[str] = (),
) -> models.QuerySet:
    """One rule table's rows of a season as the same columns every table gives: kind, number, pk, four money
    values, four whole numbers, two texts (typed NULLs where a table has no such column: PostgreSQL matches a
    UNION's column types pairwise, left to right)."""

    def cols(prefix: str, names: Sequence[str], empty: models.Expression) -> dict[str, Any]:
        return {f"{prefix}{i}": models.F(names[i - 1]) if i <= len(names) else empty for i in (1, 2, 3, 4)}

    columns = {
        "k": models.Value(kind, output_field=models.CharField()),
        "n": models.F(number),
        "i": models.F("pk"),
        **cols("m", money, Cast(models.Value(None), models.DecimalField(max_digits=12, decimal_places=2))),
        **cols("w", whole, Cast(models.Value(None), models.IntegerField())),
        **cols("t", text, models.Value("", output_field=models.CharField())),
    }
    return (
        model._default_manager.filter(season_id=season_id)
        .order_by()
        .annotate(**{c: columns[c] for c in _RULE_COLUMNS})
        .values_list(*_RULE_COLUMNS)
    )


def _rule_tables(season_id: int) -> dict[str, list[tuple]]:
    """A season's four rule tables in one query (a UNION ALL): kind → rows in table order, each (number, pk,
    four money values, four whole numbers, two texts)."""
    parts = [
        _rule_rows(season_id, DuesInstallment, "dues", "event_number", money=["amount"]),
        _rule_rows(
            season_id, PayoutRow, "payout", "member_count", money=["first", "second", "third", "fourth"]
        ),
        _rule_rows(season_id, WsopRow, "wsop", "min_members", whole=["max_members", "prizes"]),
        _rule_rows(
            season_id,
            BlindLevel,
            "blind",
            "position",
            whole=["small_blind", "big_blind", "ante", "minutes"],
            text=["kind", "note"],
        ),
    ]
    rows = parts[0].union(*parts[1:], all=True)
    tables: dict[str, list[tuple]] = {"dues": [], "payout": [], "wsop": [], "blind": []}
    for kind, number, pk, *rest in sorted(rows, key=itemgetter(0, 1, 2)):
        money = [None if v is None else quantize(v) for v in rest[:4]]
        tables[kind].append((number, pk, *money, *rest[4:]))
    return tables


def season_rules(season: Season) -> SeasonRules:
    """The season's rules as plain values for the rule calculators: the scalars from the season row and the
    four tables in one query, read once per request (``request_memo``: the night's console asks for them from
    nine places; the services that write a table forget it, and nothing is kept from one request to the next).
    """
    tables = request_memo(f"rule_tables:{season.pk}", lambda: _rule_tables(season.pk))
    values = {name: getattr(season, name) for name in SeasonRules.SCALAR_FIELDS}
    values["schedule"] = tuple(tuple(pair) for pair in season.schedule)
    values["points_table"] = tuple(season.points_table)
    # Each row: number, pk, four money values, four whole numbers, two texts.
    return SeasonRules(
        **values,
        dues_schedule=tuple((n, amount) for n, _pk, amount, *_ in tables["dues"]),
        payout_table=tuple(
            PayoutRowData(member_count=n, amounts=tuple(a for a in (m1, m2, m3, m4) if a is not None))
            for n, _pk, m1, m2, m3, m4, *_ in tables["payout"]
        ),
        wsop_table=tuple(
            WsopRowData(min_members=n, max_members=high, prizes=prizes)
            for n, _pk, _m1, _m2, _m3, _m4, high, prizes, *_ in tables["wsop"]
        ),
        blind_structure=tuple(
            BlindLevelData(kind=kind, small_blind=small, big_blind=big, ante=ante, minutes=minutes, note=note)
            for _n, _pk, _m1, _m2, _m3, _m4, small, big, ante, minutes, kind, note in tables["blind"]
        ),
    )


def seasons_all() -> list[Season]:
    """Every season, newest first (season menus; one query)."""
    return list(Season.objects.all())


def season_named(name: str) -> Season | None:
    """The season of a page address ("2026-27"), or None."""
    return next((season for season in seasons_all() if season.name == name), None)


def season_for_date(day: dt.date) -> Season | None:
    return _season_holding(seasons_all(), day)


def _season_holding(seasons: list[Season], day: dt.date) -> Season | None:
    """The newest of ``seasons`` (newest first) whose dates hold ``day``."""
    return next((season for season in seasons if season.start <= day <= season.end), None)


def current_season() -> Season | None:
    """The season containing today, else the latest one that exists."""
    seasons = seasons_all()
    return _season_holding(seasons, club_today()) or (seasons[0] if seasons else None)


def first_event_from(events: Iterable[Event], *, on: dt.date) -> Event | None:
    """The first of ``events`` dated on or after ``on`` (a page that has its season's events already)."""
    return min((e for e in events if e.date >= on), key=lambda e: (e.date, e.pk), default=None)


def next_event(
    *, on: dt.date | None = None, season: Season | None = None, events: Iterable[Event] | None = None
) -> Event | None:
    """The first event on or after ``on`` (default today). ``season`` and its ``events``: the season holding
    that day, when the caller has read it; its events answer without a query of their own."""
    day = on or club_today()
    if season is not None and season.start <= day <= season.end:
        found = first_event_from(events if events is not None else season_events(season=season), on=day)
        if found is not None:
            return found
    return (
        Event.objects.select_related("venue", "season").filter(date__gte=day).order_by("date", "pk").first()
    )


def night_under_way(*, season: Season, on: dt.date | None = None) -> Event | None:
    """The season's latest night held by ``on`` (default today) that has begun and is not final: busts are
    recorded or its clock has started (a night that runs past midnight, or results left to finish)."""
    day = on or club_today()
    return (
        Event.objects.select_related("season", "venue")
        .filter(season=season, date__lte=day)
        .exclude(status=Event.Status.FINAL)
        .filter(models.Q(status=Event.Status.IN_PROGRESS) | models.Q(night__started_at__isnull=False))
        .order_by("-date", "-number")
        .first()
    )


# ---------------------------------------------------------------------------------------------------------
# Schedule, attendance and results


def event_by_name(*, season_name: str, number: int) -> Event | None:
    """The event of a page address, with its season, venue and night (one query)."""
    return (
        Event.objects.select_related("season", "venue", "night")
        .filter(season__name=season_name, number=number)
        .first()
    )


def season_events(*, season: Season) -> list[Event]:
    """The season's events with their venues, by number (one query). A page that needs them in several places
    reads them once and passes them on."""
    events = list(Event.objects.filter(season=season).select_related("venue").order_by("number", "pk"))
    for event in events:
        event.season = season  # the caller's: no query to find it again
    return events


def event_attendances(*, event: Event) -> list[Attendance]:
    """Every seat of the event with its member (and elimination, if out), by name."""
    # Sorted here: ordering by the person's name costs the query more Python work than the sort.
    rows = (
        Attendance.objects.filter(event=event).select_related("membership__person", "elimination").order_by()
    )
    return sorted(rows, key=lambda a: (a.membership.person.last_name, a.membership.person.first_name, a.pk))


def event_busts(*, event: Event) -> list[Bust[int]]:
    """The event's eliminations as pure ``Bust`` values keyed by attendance id, in the night's order: the order
    of the taps (SPEC §17.8), ties by hand."""
    return [
        Bust(
            player=e.attendance_id,
            hand=e.hand,
            start_chips=e.start_chips,
            draw=e.draw,
            removed_for_abuse=e.removed_for_abuse,
            tapped_at=e.tapped_at,
        )
        for e in event.eliminations.order_by("tapped_at", "hand", "pk")
    ]


def event_placings(*, event: Event) -> list[Placing]:
    """Places 1..N of a finished event, best first. Interface for payouts and standings.

    Only events whose results are final have placings; chips-removed, absent and not-in-good-standing
    members have none (SPEC §5).
    """
    return season_placings(events=[event]).get(event.pk, [])


def placings_snapshot(placings: Iterable[Placing]) -> list[dict[str, Any]]:
    """Placings as kept in ``Event.final_placings`` (the last final results, SPEC §15.11)."""
    return [asdict(p) for p in placings]


def _places_values(attendances: models.QuerySet[Attendance]) -> models.QuerySet:
    """Placed seats, by event and place: what ``_placing_of`` needs of each. Whether the seat was removed for
    abuse is an EXISTS on the seat's elimination (a join with every elimination cost the database more)."""
    removed = Elimination.objects.filter(attendance=models.OuterRef("pk"), removed_for_abuse=True)
    return (
        attendances.filter(place__isnull=False)
        .annotate(removed_for_abuse=models.Exists(removed))
        .order_by("event_id", "place", "pk")
        .values_list(
            "event_id",
            "place",
            "membership_id",
            "membership__person__key",
            "substitute_name",
            "prize_to",
            "removed_for_abuse",
        )
    )


def _place_numbers(attendances: models.QuerySet[Attendance]) -> models.QuerySet:
    """Placed seats as (event id, membership id, place): all the points need of them."""
    return (
        attendances.filter(place__isnull=False).order_by().values_list("event_id", "membership_id", "place")
    )


def _final_rows(
    events: list[Event],
    *,
    shape: Callable[[models.QuerySet[Attendance]], models.QuerySet],
) -> tuple[list[int], list[tuple]]:
    """The final events' ids and their placed seats' rows as ``shape`` gives them, in one query (none when no
    event is final)."""
    final = [e.pk for e in events if e.status == Event.Status.FINAL]
    if not final:
        return final, []
    return final, list(shape(Attendance.objects.filter(event_id__in=final)))


def season_placings(*, events: Iterable[Event]) -> dict[int, list[Placing]]:
    """``event_placings`` for many events in one query: event id → placings, best first.

    An event reopened for a correction gives the places of its last final results (SPEC §15.11)."""
    events = list(events)
    final, rows = _final_rows(events, shape=_places_values)
    placings: dict[int, list[Placing]] = {pk: [] for pk in final}
    for e in events:
        if e.under_correction:
            placings[e.pk] = [Placing(**p) for p in e.final_placings]
    for event_id, place, membership_id, key, substitute, prize_to, removed in rows:
        placings[event_id].append(
            _placing_of(
                place=place,  # never None: place__isnull=False above
                membership_id=membership_id,
                member_key=key,
                substitute_name=substitute,
                prize_to=prize_to,
                removed_for_abuse=bool(removed),
            )
        )
    return placings


def places_of(placings: dict[int, list[Placing]]) -> dict[int, dict[int, int]]:
    """Placings reduced to what the points need: event id → membership id → place."""
    return {pk: {p.membership_id: p.place for p in ps} for pk, ps in placings.items()}


def season_places(*, events: Iterable[Event]) -> dict[int, dict[int, int]]:
    """``places_of(season_placings(events=…))`` from a lighter read of the same rows, without the people,
    prizes and eliminations the standings do not use. A reopened event gives its last final places (SPEC
    §15.11); a night under way or being corrected adds nothing."""
    events = list(events)
    final, rows = _final_rows(events, shape=_place_numbers)
    places: dict[int, dict[int, int]] = {pk: {} for pk in final}
    for e in events:
        if e.under_correction:
            places[e.pk] = {p["membership_id"]: p["place"] for p in e.final_placings}
    for event_id, membership_id, place in rows:
        places[event_id][membership_id] = place
    return places


def _placing_of(
    *,
    place: int,
    membership_id: int,
    member_key: str,
    substitute_name: str,
    prize_to: str,
    removed_for_abuse: bool,
) -> Placing:
    """A placing: the prize goes to the member unless a substitute played the seat (§5.3.4)."""
    return Placing(
        place=place,
        membership_id=membership_id,
        member_key=member_key,
        substitute_name=substitute_name,
        prize_to=prize_to if substitute_name else "member",
        removed_for_abuse=removed_for_abuse,
    )


@dataclass(frozen=True)
class EventField:
    """What the tournament clock shows about the players (SPEC §4)."""

    started: int  # seats with chips on the table: playing, called in late, or absent (posted and folded)
    left: int  # players playing who are not out yet
    chips_in_play: int
    average_stack: int | None  # chips_in_play / left, rounded down; None when nobody is left


FIELD_STATUSES = (Attendance.Status.EXPECTED, Attendance.Status.CALLED_IN, Attendance.Status.ABSENT)


def event_field(*, event: Event, rows: list[Attendance] | None = None) -> EventField:
    """Players still in and the average stack: starting_stack × players who started / players left.

    Absent players' chips stay on the table (posted and folded) until they are removed (at the end of level
    ``late_arrival_levels``), so they count as started; chips-removed players do not.
    """
    if rows is not None:  # the event's attendances already read, with their eliminations (event_attendances)
        started = sum(1 for r in rows if r.status in FIELD_STATUSES)
        left = sum(1 for r in rows if r.status in Attendance.PLAYING and not hasattr(r, "elimination"))
    else:
        seats = Attendance.objects.filter(event=event)
        started = seats.filter(status__in=FIELD_STATUSES).count()
        left = seats.filter(status__in=Attendance.PLAYING, elimination__isnull=True).count()
    chips = season_rules(event.season).starting_stack * started
    return EventField(
        started=started, left=left, chips_in_play=chips, average_stack=chips // left if left else None
    )


def substitutes_used(*, membership: Any, exclude_event: Event | None = None) -> int:
    """Events of the season where the member sent a substitute (§5.3.1)."""
    rows = Attendance.objects.filter(membership=membership, event__season=membership.season).exclude(
        substitute_name=""
    )
    if exclude_event is not None:
        rows = rows.exclude(event=exclude_event)
    return rows.count()


def exemption_used_at(*, membership: Any, exclude_event: Event | None = None) -> Event | None:
    """The event where the member used the once-a-season late-arrival exemption (§6.3), if any."""
    rows = (
        Attendance.objects.filter(membership=membership, event__season=membership.season)
        .filter(models.Q(called_in_at__isnull=False) | models.Q(status=Attendance.Status.CALLED_IN))
        .select_related("event")
    )
    if exclude_event is not None:
        rows = rows.exclude(event=exclude_event)
    row = rows.order_by("event__number").first()
    return row.event if row else None


def exemptions_used_at(*, event: Event, membership_ids: list[int]) -> dict[int, Event]:
    """``exemption_used_at`` for several members of the event's season at once (one query): the event where
    each used the late-arrival exemption other than ``event``, by membership id; members who did not are left
    out."""
    if not membership_ids:
        return {}
    rows = (
        Attendance.objects.filter(membership_id__in=membership_ids, event__season_id=event.season_id)
        .filter(models.Q(called_in_at__isnull=False) | models.Q(status=Attendance.Status.CALLED_IN))
        .exclude(event=event)
        .select_related("event")
        .order_by("-event__number")
    )
    return {row.membership_id: row.event for row in rows}  # the lowest event number wins


def _placing(row: Attendance, *, place: int) -> Placing:
    """``season_placings``' value for an attendance row already read (with its person and elimination) that
    has a ``place``."""
    elimination = getattr(row, "elimination", None)
    return _placing_of(
        place=place,
        membership_id=row.membership_id,
        member_key=row.membership.person.key,
        substitute_name=row.substitute_name,
        prize_to=row.prize_to,
        removed_for_abuse=bool(elimination and elimination.removed_for_abuse),
    )


@dataclass(frozen=True)
class ResultLine:
    place: int | None
    name: str  # who played the seat
    member_name: str
    member_key: str
    substitute_name: str
    status: str
    status_label: str
    points: int
    removed_for_abuse: bool
    payout: object | None  # finance PayoutLine or None


def event_result_lines(*, event: Event) -> list[ResultLine]:
    """The event page's results: places best first (with points and payouts), then the seats without one."""
    rules = season_rules(event.season)
    final = event.status == Event.Status.FINAL
    rows = event_attendances(event=event)
    placed = sorted((row for row in rows if final and row.place is not None), key=lambda r: (r.place, r.pk))
    # As season_placings gives them, from the rows read.
    placings = [_placing(row, place=row.place) for row in placed if row.place is not None]
    try:
        payouts = {
            line.place: line for line in hooks.event_payout_lines(event=event, placings=placings, rules=rules)
        }
    except NcpcError:  # e.g. no payout row for this member count: the page still shows places and points
        payouts = {}
    points_table = rules.points_table
    lines = []
    for row in rows:
        place = row.place if final else None
        elimination = getattr(row, "elimination", None)
        lines.append(
            ResultLine(
                place=place,
                name=row.player_name,
                member_name=row.membership.person.full_name,
                member_key=row.membership.person.key,
                substitute_name=row.substitute_name,
                status=row.status,
                status_label=Attendance.Status(row.status).label,
                points=points_for(place=place, points_table=points_table),
                removed_for_abuse=bool(elimination and elimination.removed_for_abuse),
                payout=payouts.get(place) if place else None,
            )
        )
    return sorted(lines, key=lambda line: (line.place is None, line.place or 0))
