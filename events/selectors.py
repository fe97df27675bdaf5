"""Reads of seasons and events that pages and other apps share."""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace

from events import hooks
from events.models import Attendance, BlindLevel, DuesInstallment, Event, PayoutRow, Season, WsopRow
from events.placings import Placing
from events.rules import BlindLevelData, PayoutRowData, SeasonRules, WsopRowData
from events.services.places import Bust, points_for
from ncpc.cache import computed, read_once, season_rows_once
from ncpc.clock import club_today
from ncpc.errors import NcpcError


class RuleRows(Sequence):
    """One of a season's rule tables, read from the database the first time it is used (each table is also in the
    computed cache): a page that needs only the dues schedule does not read the blind structure. Compares equal
    to a tuple of the same rows, and pickles with the rows it has read, or only the season's id when none."""

    def __init__(self, read, season_id: int):
        self._read = read  # a module-level reader (pickled by name): the table's rows of a season
        self._season_id = season_id
        self._rows: tuple | None = None

    def _all(self) -> tuple:
        if self._rows is None:
            self._rows = self._read(self._season_id)
        return self._rows

    def __getitem__(self, index):
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self):
        return iter(self._all())

    def __eq__(self, other) -> bool:
        if isinstance(other, RuleRows | tuple | list):
            return self._all() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


@computed(lambda season_id: f"{season_id}")
def _dues_rows(season_id: int) -> tuple:
    return tuple(
        DuesInstallment.objects.filter(season_id=season_id)
        .order_by("event_number", "pk")
        .values_list("event_number", "amount")
    )


@computed(lambda season_id: f"{season_id}")
def _payout_rows(season_id: int) -> tuple:
    return tuple(
        PayoutRowData(
            member_count=row.member_count,
            amounts=tuple(a for a in (row.first, row.second, row.third, row.fourth) if a is not None),
        )
        for row in PayoutRow.objects.filter(season_id=season_id).order_by("member_count", "pk")
    )


@computed(lambda season_id: f"{season_id}")
def _wsop_rows(season_id: int) -> tuple:
    return tuple(
        WsopRowData(min_members=row.min_members, max_members=row.max_members, prizes=row.prizes)
        for row in WsopRow.objects.filter(season_id=season_id).order_by("min_members", "pk")
    )


@computed(lambda season_id: f"{season_id}")
def _blind_rows(season_id: int) -> tuple:
    return tuple(
        BlindLevelData(
            kind=row.kind,
            small_blind=row.small_blind,
            big_blind=row.big_blind,
            ante=row.ante,
            minutes=row.minutes,
            note=row.note,
        )
        for row in BlindLevel.objects.filter(season_id=season_id).order_by("position", "pk")
    )


def season_rules(season: Season, *, now: bool = False) -> SeasonRules:
    """The season's rules as plain values for the rule calculators: the scalars from the season row (no query)
    and each table read when first used (one query each). A GET request shares one per season (``read_once``).

    ``now``: read every table at once, for rules that must outlive the season's rows (copied into a new season,
    or kept while a season is replaced)."""
    if now:
        rules = _season_rules_read(season)
        return replace(
            rules,
            **{name: tuple(getattr(rules, name)) for name in SeasonRules.TABLE_FIELDS},
        )
    return read_once(f"rules:{season.pk}", lambda: _season_rules_read(season))


def _season_rules_read(season: Season) -> SeasonRules:
    values = {name: getattr(season, name) for name in SeasonRules.SCALAR_FIELDS}
    values["schedule"] = tuple(tuple(pair) for pair in season.schedule)
    values["points_table"] = tuple(season.points_table)
    return SeasonRules(
        **values,
        dues_schedule=RuleRows(_dues_rows, season.pk),
        payout_table=RuleRows(_payout_rows, season.pk),
        wsop_table=RuleRows(_wsop_rows, season.pk),
        blind_structure=RuleRows(_blind_rows, season.pk),
    )


@computed(lambda: "")
def seasons_all() -> list[Season]:
    """Every season, newest first (season menus)."""
    return list(Season.objects.all())


def season_for_date(day: dt.date) -> Season | None:
    return Season.objects.filter(start__lte=day, end__gte=day).first()


@computed(lambda: "")
def current_season() -> Season | None:
    """The season containing today, else the latest one that exists."""
    return season_for_date(club_today()) or Season.objects.first()


def first_event_from(events, *, on: dt.date) -> Event | None:
    """The first of ``events`` dated on or after ``on`` (a page that has its season's events already)."""
    return min((e for e in events if e.date >= on), key=lambda e: (e.date, e.pk), default=None)


@computed(lambda *, on=None, season=None: f"{on}:{season.pk if season else None}")
def next_event(*, on: dt.date | None = None, season: Season | None = None) -> Event | None:
    """The first event on or after ``on`` (default today). ``season``: the season holding that day, when the
    caller has it; its events (``season_events``, shared by the page) answer without a query of their own."""
    day = on or club_today()
    if season is not None and season.start <= day <= season.end:
        found = first_event_from(season_events(season=season), on=day)
        if found is not None:
            return found
    return (
        Event.objects.select_related("venue", "season").filter(date__gte=day).order_by("date", "pk").first()
    )


# ---------------------------------------------------------------------------------------------------------
# Schedule, attendance and results


def event_get(*, season: Season, number: int) -> Event | None:
    return Event.objects.select_related("season", "venue").filter(season=season, number=number).first()


@computed(lambda *, season_name, number: f"{season_name}:{number}")
def event_by_name(*, season_name: str, number: int) -> Event | None:
    """The event of a page address (one query, none when cached: events change only through audited commands)."""
    return (
        Event.objects.select_related("season", "venue")
        .filter(season__name=season_name, number=number)
        .first()
    )


def season_events(*, season: Season) -> list[Event]:
    """The season's events with their venues, by number (one query, shared by the parts of a page)."""
    return season_rows_once(
        "events",
        season,
        lambda: list(Event.objects.filter(season=season).select_related("venue").order_by("number", "pk")),
    )


def event_attendances(*, event: Event) -> list:
    """Every seat of the event with its member (and elimination, if out), by name."""
    return list(
        Attendance.objects.filter(event=event)
        .select_related("membership__person", "elimination")
        .order_by("membership__person__last_name", "membership__person__first_name", "pk")
    )


def event_busts(*, event: Event) -> list:
    """The event's eliminations as pure ``Bust`` values keyed by attendance id, in play order."""
    return [
        Bust(
            player=e.attendance_id,
            hand=e.hand,
            start_chips=e.start_chips,
            draw=e.draw,
            removed_for_abuse=e.removed_for_abuse,
        )
        for e in event.eliminations.order_by("hand", "pk")
    ]


def event_placings(*, event: Event) -> list[Placing]:
    """Places 1..N of a finished event, best first. Interface for payouts and standings.

    Only events whose results are final have placings; chips-removed, absent and not-in-good-standing
    members have none (SPEC §5).
    """
    return season_placings(events=[event]).get(event.pk, [])


def season_placings(*, events) -> dict[int, list[Placing]]:
    """``event_placings`` for many events in one query: event id → placings, best first."""
    final = [e.pk for e in events if e.status == Event.Status.FINAL]
    placings: dict[int, list[Placing]] = {pk: [] for pk in final}
    if not final:
        return placings
    rows = (
        Attendance.objects.filter(event_id__in=final, place__isnull=False)
        .select_related("membership__person", "elimination")
        .order_by("event_id", "place", "pk")
    )
    for row in rows:
        elimination = getattr(row, "elimination", None)
        placings[row.event_id].append(
            Placing(
                place=row.place,
                membership_id=row.membership_id,
                member_key=row.membership.person.key,
                substitute_name=row.substitute_name,
                prize_to=row.prize_to if row.substitute_name else "member",
                removed_for_abuse=bool(elimination and elimination.removed_for_abuse),
            )
        )
    return placings


@dataclass(frozen=True)
class EventField:
    """What the tournament clock shows about the players (SPEC §4)."""

    started: int  # seats with chips on the table: playing, called in late, or absent (posted and folded)
    left: int  # players playing who are not out yet
    chips_in_play: int
    average_stack: int | None  # chips_in_play / left, rounded down; None when nobody is left


def event_field(*, event: Event) -> EventField:
    """Players still in and the average stack: starting_stack × players who started / players left.

    Absent players' chips stay on the table (posted and folded) until they are removed after the first
    hour, so they count as started; chips-removed players do not.
    """
    rows = Attendance.objects.filter(event=event)
    started = rows.filter(
        status__in=[Attendance.Status.EXPECTED, Attendance.Status.CALLED_IN, Attendance.Status.ABSENT]
    ).count()
    left = rows.filter(status__in=Attendance.PLAYING, elimination__isnull=True).count()
    chips = event.season.starting_stack * started
    return EventField(
        started=started, left=left, chips_in_play=chips, average_stack=chips // left if left else None
    )


def substitutes_used(*, membership, exclude_event: Event | None = None) -> int:
    """Events of the season where the member sent a substitute (§5.3.1)."""
    rows = Attendance.objects.filter(membership=membership, event__season=membership.season).exclude(
        substitute_name=""
    )
    if exclude_event is not None:
        rows = rows.exclude(event=exclude_event)
    return rows.count()


def exemption_used_at(*, membership, exclude_event: Event | None = None) -> Event | None:
    """The event where the member used the once-a-season late-arrival exemption (§6.3), if any."""
    rows = Attendance.objects.filter(
        membership=membership, event__season=membership.season, status=Attendance.Status.CALLED_IN
    ).select_related("event")
    if exclude_event is not None:
        rows = rows.exclude(event=exclude_event)
    row = rows.order_by("event__number").first()
    return row.event if row else None


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


@computed(lambda *, event: f"{event.pk}")
def event_result_lines(*, event: Event) -> list[ResultLine]:
    """The event page's results: places best first (with points and payouts), then the seats without one."""
    try:
        payouts = {line.place: line for line in hooks.event_payout_lines(event=event)}
    except NcpcError:  # e.g. no payout row for this member count: the page still shows places and points
        payouts = {}
    points_table = tuple(event.season.points_table)
    final = event.status == Event.Status.FINAL
    lines = []
    for row in event_attendances(event=event):
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
