"""Creating a season with its rules and its events, and changing its rules (commands)."""

import calendar
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.db import IntegrityError, transaction

from events import hooks
from events.bylaws import BYLAWS_RULES
from events.models import BlindLevel, DuesInstallment, Event, PayoutRow, Season, WsopRow
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.event_edit import event_move
from events.services.schedule import schedule_dates, schedule_monthly
from events.signals import season_created
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import ConcurrentChange, NcpcError
from ncpc.core.middleware import request_memo_forget


def season_name_for(start: dt.date) -> str:
    return f"{start.year}-{(start.year + 1) % 100:02d}"


def season_bounds(start_year: int) -> tuple[dt.date, dt.date]:
    """A fiscal year runs 1 Aug – 31 Jul (§1.2)."""
    return dt.date(start_year, 8, 1), dt.date(start_year + 1, 7, 31)


def _month_after(day: dt.date) -> dt.date:
    return (day.replace(day=1) + dt.timedelta(days=32)).replace(day=1)


@dataclass(frozen=True)
class SeasonOpening:
    """The day a new season's seats take effect (SPEC §17.2): its first day, ``start``, unless that day is in
    or before a closed month; then the first day of the first open month. ``closed_until``: the first day of
    the last month closed then, None when ``start`` is open. ``seats_on`` is None when every month of the
    season is closed or before a closed one."""

    name: str
    start: dt.date
    seats_on: dt.date | None
    closed_until: dt.date | None

    @property
    def moved(self) -> bool:
        """Do the seats take effect later than the season's first day?"""
        return self.seats_on != self.start

    @property
    def notice(self) -> str:
        """What opening the season does about the closed months, in words for the new-season form; "" when its
        first day is open."""
        if not self.moved:
            return ""
        if self.seats_on is None:
            return (
                f"Every month of {self.name} is closed (the books are closed up to {self.closed_until:%B %Y}): "
                "it cannot be opened."
            )
        return (
            f"Season {self.name}: the seats carry over on {self.seats_on:%b %-d, %Y}, not {self.start:%b %-d}, "
            f"since the months up to {self.closed_until:%B %Y} are closed (each continuing member owes the "
            f"season's dues as always). Its first event must be in {self.seats_on:%B %Y} or later."
        )


def season_opening(*, start_year: int) -> SeasonOpening:
    """When the season beginning 1 Aug ``start_year`` takes effect (``SeasonOpening``). Asks finance about
    each month from the season's first on, until one is open (``events.hooks.closed_month_refusal``: the
    first month after the last closed one); inside a command's transaction the answer holds until it commits,
    so that a month closing meanwhile waits for the command (``finance.services.ledger``)."""
    start, end = season_bounds(start_year)
    day = start
    while day <= end and hooks.closed_month_refusal(day=day) is not None:
        day = _month_after(day)
    closed_until = (day - dt.timedelta(days=1)).replace(day=1) if day != start else None
    return SeasonOpening(
        name=season_name_for(start),
        start=start,
        seats_on=day if day <= end else None,
        closed_until=closed_until,
    )


def season_next_opening(*, season: Season) -> SeasonOpening | None:
    """What opening the season after ``season`` does about the closed months (``season_opening``), for the
    new-season form; None when that season is opened already."""
    following = season.start.year + 1
    if Season.objects.filter(start=season_bounds(following)[0]).exists():
        return None
    return season_opening(start_year=following)


def season_first_month_offered(
    *, schedule: Sequence[Sequence[int]], start_year: int, opening: SeasonOpening | None
) -> int:
    """The new-season form's first month: that of the season before's ``schedule`` (else the fiscal year's
    first), unless it falls before the day the new season's seats take effect (its first months closed, SPEC
    §17.2); then that day's month."""
    start = season_bounds(start_year)[0]
    month = schedule[0][0] if schedule else start.month
    if opening is None or not opening.moved or opening.seats_on is None:
        return month
    first_day = dt.date(start.year + (month < start.month), month, 1)
    return opening.seats_on.month if first_day < opening.seats_on else month


@transaction.atomic
def season_create(
    *,
    start_year: int,
    actor: Actor = None,
    rules: SeasonRules | None = None,
    first_month: int | None = None,
    weekday: int | None = None,
    nth: int | None = None,
) -> Season:
    """Create the season beginning 1 Aug ``start_year``, with rules copied from the previous season.

    The club's first season gets the bylaws' values; adopted rule changes waiting for this season are applied.
    Given explicit ``rules`` (an import), those are used as they are. No event may fall in or before a closed
    month (SPEC §17.2, ``_events_closed_month_check``), unless ``rules`` are given: a season file restores
    history of record, which a closed month takes. Events come from the schedule rule,
    which the officer may choose here (``season_schedule_chosen``): the month of the first event, the day
    of the week, and one event a month on its ``nth`` such day. The fiscal year stays 1 Aug – 31 Jul (§1.2).
    """
    start, end = season_bounds(start_year)
    name = season_name_for(start)
    if Season.objects.filter(name=name).exists():
        raise NcpcError(f"Season {name} exists already.")
    copied = rules is None
    if rules is None:
        previous = Season.objects.filter(start__lt=start).order_by("-start").first()
        rules = season_rules(previous) if previous else BYLAWS_RULES
    rules = season_schedule_chosen(rules=rules, first_month=first_month, weekday=weekday, nth=nth)
    if copied:  # the officers' new season; a season file (``rules`` given) restores history of record
        _events_closed_month_check(name=name, start=start, rules=rules)
    scalars = {f: getattr(rules, f) for f in SeasonRules.SCALAR_FIELDS}
    scalars["schedule"] = [list(pair) for pair in rules.schedule]
    scalars["points_table"] = list(rules.points_table)
    try:
        with transaction.atomic():
            season = Season.objects.create(name=name, start=start, end=end, **scalars)
    except IntegrityError:  # another officer's form created it a moment ago (both passed the check above)
        raise NcpcError(f"Season {name} exists already.") from None
    rules_tables_write(season=season, rules=rules)
    events_generate(season=season)
    audit_record(actor=actor, action="season.create", target=season, summary=f"Created season {name}")
    # Members applies the rule changes the club adopted for this season (§3.4.4) on top of copied rules.
    season_created.send(sender=Season, season=season, rules_copied=copied, actor=actor)
    return season


def season_schedule_chosen(
    *, rules: SeasonRules, first_month: int | None = None, weekday: int | None = None, nth: int | None = None
) -> SeasonRules:
    """``rules`` with the schedule chosen on the new-season form. ``nth``: one event a month on the nth day of
    the week, from ``first_month`` (August when not given), as many months as the season has events. Without
    ``nth`` the schedule stays as it is, which must then begin in ``first_month``. ``weekday`` (Monday 0 …
    Sunday 6): the day of the week the schedule counts. Raises NcpcError when the choice cannot be applied."""
    if nth is not None:
        try:
            schedule = schedule_monthly(first_month=first_month or 8, nth=nth, events=rules.events_per_season)
        except ValueError as exc:
            raise NcpcError(f"{exc}: choose an earlier first month.", field="first_month") from None
        rules = replace(rules, schedule=tuple((month, n) for month, n in schedule))
    elif first_month is not None and rules.schedule and rules.schedule[0][0] != first_month:
        raise NcpcError(
            f"The schedule of the season before starts in {calendar.month_name[rules.schedule[0][0]]}: for "
            f"events from {calendar.month_name[first_month]} on, choose which day of the month they fall on "
            "(like the 4th).",
            field="nth",
        )
    if weekday is not None:
        rules = replace(rules, schedule_weekday=weekday)
    return rules


def _events_closed_month_check(*, name: str, start: dt.date, rules: SeasonRules) -> None:
    """SPEC §17.2: an event's date counts in its month's report (its late fees, its payouts), so none of the
    new season's events may fall in or before a closed month. Refused, before anything is written, on the
    form's first month, naming the closed month and the first open one. A schedule that cannot be applied is
    left to ``events_generate``, which says why."""
    try:
        dates = schedule_dates(season_start=start, schedule=rules.schedule, weekday=rules.schedule_weekday)
    except ValueError:
        return
    if not dates:
        return
    first = min(dates)
    refusal = hooks.closed_month_refusal(day=first)
    if refusal is None:
        return
    raise NcpcError(
        f"Nothing was created: the first event of {name} would be on {first:%b %-d, %Y}. {refusal} Choose the "
        "month of its first event (and the day the events fall on) so that every event is in an open month.",
        field="first_month",
    )


# The model that holds each of the season's rule tables.
RULE_TABLE_MODELS: dict[str, type[DuesInstallment | PayoutRow | WsopRow | BlindLevel]] = {
    "dues_schedule": DuesInstallment,
    "payout_table": PayoutRow,
    "wsop_table": WsopRow,
    "blind_structure": BlindLevel,
}


def rules_tables_write(
    *, season: Season, rules: SeasonRules, tables: Sequence[str] = SeasonRules.TABLE_FIELDS
) -> None:
    """Write the rows of ``rules``' tables named in ``tables`` for a season that has none of them yet."""
    if "dues_schedule" in tables:
        DuesInstallment.objects.bulk_create(
            DuesInstallment(season=season, event_number=n, amount=amount) for n, amount in rules.dues_schedule
        )
    if "payout_table" in tables:
        PayoutRow.objects.bulk_create(
            PayoutRow(
                season=season,
                member_count=row.member_count,
                **dict(zip(("first", "second", "third", "fourth"), row.amounts, strict=False)),
            )
            for row in rules.payout_table
        )
    if "wsop_table" in tables:
        WsopRow.objects.bulk_create(
            WsopRow(season=season, min_members=r.min_members, max_members=r.max_members, prizes=r.prizes)
            for r in rules.wsop_table
        )
    if "blind_structure" in tables:
        BlindLevel.objects.bulk_create(
            BlindLevel(
                season=season,
                position=i,
                kind=lvl.kind,
                small_blind=lvl.small_blind,
                big_blind=lvl.big_blind,
                ante=lvl.ante,
                minutes=lvl.minutes,
                note=lvl.note,
            )
            for i, lvl in enumerate(rules.blind_structure, start=1)
        )
    request_memo_forget()  # this request reads the tables it just wrote


def events_generate(*, season: Season) -> list[Event]:
    """Create the season's events from its schedule rule; events that exist already are kept."""
    try:
        rules = season_rules(season)
        dates = schedule_dates(
            season_start=season.start, schedule=rules.schedule, weekday=rules.schedule_weekday
        )
    except ValueError as exc:
        raise NcpcError(f"The schedule rule cannot be applied: {exc}.") from None
    existing = set(season.events.values_list("number", flat=True))
    created = [
        Event(season=season, number=number, date=date, starts_at=rules.event_start_time)
        for number, date in enumerate(dates, start=1)
        if number not in existing
    ]
    return Event.objects.bulk_create(created)


@dataclass(frozen=True)
class EventReschedule:
    """An event whose date is not its schedule rule's date: ``new`` is the rule's date; ``stays`` says why it
    does not move (played already, or the rule's date has passed), empty when it moves."""

    number: int
    old: dt.date
    new: dt.date
    stays: str = ""

    @property
    def key(self) -> str:
        return f"{self.number}:{self.old.isoformat()}:{self.new.isoformat()}"


def events_reschedule_plan(*, season: Season, today: dt.date) -> list[EventReschedule]:
    """Every event of ``season`` whose date differs from the date its schedule rule gives it, in event order.
    Events not yet played (no results, dated after ``today``) move, when the rule's date is after ``today``
    too; the others stay, with the reason. Reads only."""
    rules = season_rules(season)
    try:
        dates = schedule_dates(
            season_start=season.start, schedule=rules.schedule, weekday=rules.schedule_weekday
        )
    except ValueError as exc:
        raise NcpcError(f"The schedule rule cannot be applied: {exc}.") from None
    plan = []
    for number, date, status in season.events.order_by("number").values_list("number", "date", "status"):
        if number > len(dates) or dates[number - 1] == date:
            continue
        new = dates[number - 1]
        if status != Event.Status.SCHEDULED or date <= today:
            stays = "played already"
        elif new <= today:
            stays = "the new date has passed"
        else:
            stays = ""
        plan.append(EventReschedule(number=number, old=date, new=new, stays=stays))
    return plan


def _moved_already(*, season: Season, expected: Sequence[str]) -> bool:
    """Whether each confirmed move (``EventReschedule.key``, "number:old:new") is done: its event is on its new
    date."""
    dates = dict(season.events.values_list("number", "date"))
    for key in expected:
        number, _old, new = (key.split(":") + ["", "", ""])[:3]
        if not (number.isascii() and number.isdigit() and len(number) < 6) or int(number) not in dates:
            return False
        if dates[int(number)].isoformat() != new:
            return False
    return True


@transaction.atomic
def events_reschedule(
    *, season: Season, today: dt.date, expected: Sequence[str], actor: Actor, reason: str = ""
) -> list[EventReschedule]:
    """Move every event not yet played to its schedule rule's date (SPEC §3: it keeps its number), all or
    nothing, each through ``event_move`` (its checks and its audit row), with one audit row for the whole.

    ``expected``: the moves the officer confirmed (``EventReschedule.key``); when the plan differs now
    (the rule or an event changed meanwhile) nothing moves. Events are moved in an order that lets each move
    pass ``event_move``'s checks (an event may move to a day another leaves); when none can, the first
    refusal is raised and nothing has moved."""
    locked = Season.objects.select_for_update().get(pk=season.pk)
    moves = [m for m in events_reschedule_plan(season=locked, today=today) if not m.stays]
    if not moves and expected and _moved_already(season=locked, expected=expected):
        raise NcpcError(
            "Nothing was moved again: these events are on their schedule rule's dates already (the "
            "confirmation was sent twice)."
        )
    if sorted(m.key for m in moves) != sorted(expected):
        raise ConcurrentChange(
            "The events or the schedule rule changed meanwhile: nothing was moved. Check the new list of moves."
        )
    if not moves:
        raise NcpcError("Every event not yet played is on its schedule rule's date already.")
    events = {e.number: e for e in locked.events.filter(number__in=[m.number for m in moves])}
    why = reason.strip() or f"the schedule rule of {locked} changed"
    waiting = list(moves)
    while waiting:
        refusals: list[tuple[EventReschedule, NcpcError]] = []
        for move in waiting:
            try:
                event_move(event=events[move.number], date=move.new, actor=actor, reason=why)
            except NcpcError as exc:
                refusals.append((move, exc))
        if len(refusals) == len(waiting):
            first, refusal = refusals[0]
            raise NcpcError(
                f"Nothing was moved: event {first.number} cannot move to {first.new:%b %-d, %Y}. {refusal}"
            )
        waiting = [move for move, _exc in refusals]
    audit_record(
        actor=actor,
        action="season.reschedule",
        target=locked,
        summary=f"Moved {len(moves)} events of {locked} to the dates of its schedule rule",
        reason=why,
        data={
            "moves": [{"event": m.number, "from": m.old.isoformat(), "to": m.new.isoformat()} for m in moves]
        },
    )
    return moves
