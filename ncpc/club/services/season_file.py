"""Reading the season file (SPEC §13, format ``ncpc-season/1``). Pure: JSON in, checked values out.

Every problem is reported with the path of the row it is in (``events[3].results[5]: place 4 given twice``),
all of them at once, so an officer can fix a spreadsheet export in one go. Nothing here touches the database;
the import command writes only after this (and the rule checks that need computed dues) found nothing wrong.
The optional ``rules`` object (SPEC §16.9) is read first: the rest of the file is checked against its rules.
"""

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.db.models import Field

from events.models import BlindLevel, Season
from events.rules import BlindLevelData, PayoutRowData, SeasonRules, WsopRowData
from events.services.rules_edit import SETTINGS_FIELDS, season_rules_problems
from members.services.admission import age_on
from members.services.people import KEY_FORM
from members.services.seat_terms import seat_held_at
from ncpc.core.errors import NcpcError
from ncpc.core.mail import email_problem
from ncpc.core.money import parse_money

FORMAT = "ncpc-season/1"
STATUSES = ("absent", "chips_removed", "not_in_good_standing")
KEY_RE = KEY_FORM  # a person's handle, as members.services.people checks it
SEASON_RE = re.compile(r"^(\d{4})-(\d{2})$")


class SeasonFileError(NcpcError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class MemberRow:
    key: str
    first_name: str
    last_name: str
    date_of_birth: dt.date | None
    email: str
    sponsor: str | None
    first_event: int
    left_after_event: int | None


@dataclass(frozen=True)
class ResultRow:
    member: str
    place: int | None
    status: str  # "placed" or one of STATUSES
    substitute: str = ""
    prize_to: str = "member"
    removed_for_abuse: bool = False


@dataclass(frozen=True)
class EventRow:
    number: int
    date: dt.date
    venue: str | None
    results: tuple[ResultRow, ...]


@dataclass(frozen=True)
class PaymentRow:
    member: str
    date: dt.date
    amount: Decimal
    method: str
    reference: str = ""


@dataclass(frozen=True)
class TieBreakRow:
    members: tuple[str, ...]
    order: tuple[str, ...]
    how: str


@dataclass(frozen=True)
class WsopResultRow:
    member: str
    gross: Decimal
    tips: Decimal


@dataclass(frozen=True)
class SeasonFile:
    name: str
    start: dt.date
    venues: tuple[tuple[str, str], ...]
    members: tuple[MemberRow, ...]
    events: tuple[EventRow, ...]
    payments: tuple[PaymentRow, ...] = ()
    tie_breaks: tuple[TieBreakRow, ...] = ()
    wsop_declined: tuple[str, ...] = ()
    wsop_results: tuple[WsopResultRow, ...] = ()
    member_index: dict[str, MemberRow] = field(default_factory=dict, compare=False)
    # The file's ``rules`` (SPEC §16.9), checked; None when the file has none. ``settings``: what the rules page
    # edits besides the rules (``results_email``) when the file gives it.
    rules: SeasonRules | None = None
    settings: dict[str, Any] = field(default_factory=dict)


class _Reader:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def obj(self, where: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(where, "must be an object")
            return {}
        return value

    def items(self, where: str, value: Any) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(where, "must be a list")
            return []
        return value

    def text(self, where: str, value: Any, *, required: bool = True, max_length: int = 200) -> str:
        if value is None or value == "":
            if required:
                self.fail(where, "is missing")
            return ""
        if not isinstance(value, str):
            self.fail(where, "must be text")
            return ""
        if len(value) > max_length:
            self.fail(where, f"is longer than {max_length} characters")
            return value[:max_length]
        return value.strip()

    def date(self, where: str, value: Any, *, required: bool = True) -> dt.date | None:
        if value is None:
            if required:
                self.fail(where, "is missing")
            return None
        if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            self.fail(where, f"{value!r} is not a date like 2026-08-22")
            return None
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            self.fail(where, f"{value!r} is not a real date")
            return None

    def whole(
        self, where: str, value: Any, *, required: bool = True, low: int = 1, high: int = 10_000
    ) -> int | None:
        if value is None:
            if required:
                self.fail(where, "is missing")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"{value!r} is not a whole number")
            return None
        if not low <= value <= high:
            self.fail(where, f"{value} is not between {low} and {high}")
            return None
        return value

    def money(
        self, where: str, value: Any, *, positive: bool = False, limit: Decimal | None = Decimal("1000000")
    ) -> Decimal | None:
        """``limit``: None for a rule of the season, whose own check (its column's digits) says how large."""
        if not isinstance(value, str):
            self.fail(where, f'{value!r} must be a money string like "110.00"')
            return None
        try:
            amount = parse_money(value)
        except ValueError as exc:
            self.fail(where, str(exc))
            return None
        if amount < 0 or (positive and amount == 0):
            self.fail(where, f"{value} must be {'more than zero' if positive else 'zero or more'}")
            return None
        if limit is not None and amount >= limit:
            self.fail(where, f"{value} is too large")
            return None
        return amount


def season_file_read(*, data: Any, rules: SeasonRules) -> SeasonFile:
    """Check a whole season file against its format and the season's rules; raise SeasonFileError listing
    every problem, or return the checked values. One step per part of the file, in the file's order."""
    r = _Reader()
    root = r.obj("file", data)
    if root.get("format") != FORMAT:
        r.fail("format", f"must be {FORMAT!r} (got {root.get('format')!r})")
        raise SeasonFileError(r.problems)

    file_rules = _rules_read(r, root.get("rules"), base=rules)
    if r.problems:  # the rest of the file is checked against its rules: those come first
        raise SeasonFileError(r.problems)
    if file_rules is not None:
        rules = file_rules[0]

    season = _season_read(r, root.get("season"))
    venues = _venues_read(r, root.get("venues"))
    members = _members_read(r, root.get("members"), rules=rules)
    index = {m.key: m for m in members if m.key}
    _sponsors_check(r, members, index=index)
    _seats_check(r, index, rules=rules)
    events = _events_read(
        r, root.get("events"), season=season, venue_names={n for n, _a in venues}, index=index, rules=rules
    )
    _ages_check(r, members, event_dates={e.number: e.date for e in events}, start=season.start, rules=rules)
    payments = _payments_read(r, root.get("payments"), index=index)
    tie_breaks = _tie_breaks_read(r, root.get("tie_breaks"), index=index)
    declined = _declined_read(r, root.get("wsop_declined"), index=index)
    wsop_results = _wsop_results_read(r, root.get("wsop_results"), index=index)

    if r.problems or season.start is None:  # a missing start is a problem listed
        raise SeasonFileError(r.problems)
    return SeasonFile(
        name=season.name,
        start=season.start,
        venues=tuple(venues),
        members=tuple(members),
        events=tuple(sorted(events, key=lambda e: e.number)),
        payments=tuple(payments),
        tie_breaks=tuple(tie_breaks),
        wsop_declined=tuple(declined),
        wsop_results=tuple(wsop_results),
        member_index=index,
        rules=file_rules[0] if file_rules is not None else None,
        settings=file_rules[1] if file_rules is not None else {},
    )


# The biggest whole number each kind of rule column holds (the database's range; the rule's own checks say more).
SMALL_MAX = 32_767
WHOLE_MAX = 2_147_483_647
TIME_RE = re.compile(r"^\d{2}:\d{2}(:\d{2})?$")


def rule_kind(name: str) -> str:
    """How the season rule or setting ``name`` is written in a file: ``schedule`` ([month, nth day] pairs, the
    nth of the season's ``schedule_weekday``), ``points_table`` (whole numbers), or its ``Season`` field's type:
    a decimal (money and percentages) as a string like "25.00", a whole number, a time as "19:00", true/false,
    text."""
    if name in ("schedule", "points_table"):
        return name
    column = Season._meta.get_field(name)
    return column.get_internal_type() if isinstance(column, Field) else ""


def _rules_read(r: _Reader, raw: Any, *, base: SeasonRules) -> tuple[SeasonRules, dict[str, Any]] | None:
    """The optional ``rules`` object (SPEC §16.9): each rule under its ``SeasonRules`` name. A rule the object
    leaves out keeps its value in ``base`` (the rules the season gets from a file without rules). The whole
    set is then checked as the rules page's command checks it (``season_rules_problems``)."""
    if raw is None:
        return None
    given = r.obj("rules", raw)
    if not isinstance(raw, dict):
        return None
    scalars = (*SeasonRules.SCALAR_FIELDS, *SETTINGS_FIELDS)
    for name in sorted(set(given) - {*scalars, *SeasonRules.TABLE_FIELDS}):
        r.fail(f"rules.{name}", "is not a season rule")
    before = len(r.problems)
    values: dict[str, Any] = {}
    for name in scalars:
        if name in given:
            values[name] = _rule_value_read(r, f"rules.{name}", given[name], kind=rule_kind(name))
    tables: dict[str, Any] = {
        name: _rule_table_read(r, name, given[name]) for name in SeasonRules.TABLE_FIELDS if name in given
    }
    if len(r.problems) > before:
        return None
    settings = {name: values.pop(name) for name in SETTINGS_FIELDS if name in values}
    rules = replace(base, **values, **tables)
    for problem in season_rules_problems(rules=rules, settings=settings):
        r.fail(f"rules.{problem.field}", problem.message)
    return rules, settings


def _rule_value_read(r: _Reader, where: str, value: Any, *, kind: str) -> Any:
    """One scalar rule as ``SeasonRules`` holds it; None (and a problem) when it is not of its kind."""
    if kind in ("schedule", "points_table") and not isinstance(value, list):
        r.fail(where, "must be a list")
        return None
    if kind == "schedule":
        if not value:
            r.fail(where, "needs at least one event")
        pairs = []
        for i, pair in enumerate(value):
            if not (isinstance(pair, list) and len(pair) == 2):
                r.fail(f"{where}[{i}]", f"{pair!r} must be [month, nth day of the week], like [11, 2]")
                continue
            month = r.whole(f"{where}[{i}][0]", pair[0], high=12)
            nth = r.whole(f"{where}[{i}][1]", pair[1], high=5)
            pairs.append((month, nth))
        return tuple(pairs)
    if kind == "points_table":
        return tuple(
            r.whole(f"{where}[{i}]", points, low=0, high=WHOLE_MAX) for i, points in enumerate(value)
        )
    if kind == "DecimalField":
        return r.money(where, value, limit=None)
    if kind in ("PositiveSmallIntegerField", "SmallIntegerField"):
        return r.whole(where, value, low=0, high=SMALL_MAX)
    if kind in ("PositiveIntegerField", "IntegerField"):
        return r.whole(where, value, low=0, high=WHOLE_MAX)
    if kind == "TimeField":
        if not isinstance(value, str) or not TIME_RE.match(value):
            r.fail(where, f"{value!r} is not a time like 19:00")
            return None
        try:
            return dt.time.fromisoformat(value)
        except ValueError:
            r.fail(where, f"{value!r} is not a real time")
            return None
    if kind == "BooleanField":
        if not isinstance(value, bool):
            r.fail(where, f"{value!r} must be true or false")
            return None
        return value
    return r.text(where, value, required=False)


# Each rule table's columns in a file.
RULE_TABLE_COLUMNS = {
    "dues_schedule": ("event_number", "amount"),
    "payout_table": ("member_count", "amounts"),
    "wsop_table": ("min_members", "max_members", "prizes"),
    "blind_structure": ("kind", "small_blind", "big_blind", "ante", "minutes", "note"),
}


def _rule_table_read(r: _Reader, name: str, raw: Any) -> tuple[Any, ...]:
    """One rule table, its rows as ``SeasonRules`` holds them."""
    where = f"rules.{name}"
    if not isinstance(raw, list):
        r.fail(where, "must be a list")
        return ()
    rows: list[Any] = []
    for i, raw_row in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(raw_row, dict):
            r.fail(at, "must be an object")
            continue
        row = raw_row
        for column in sorted(set(row) - set(RULE_TABLE_COLUMNS[name])):
            r.fail(f"{at}.{column}", f"is not a column of {name} ({', '.join(RULE_TABLE_COLUMNS[name])})")
        if name == "dues_schedule":
            number = r.whole(f"{at}.event_number", row.get("event_number"), high=SMALL_MAX)
            amount = r.money(f"{at}.amount", row.get("amount"))
            if number is not None and amount is not None:
                rows.append((number, amount))
        elif name == "payout_table":
            count = r.whole(f"{at}.member_count", row.get("member_count"), high=SMALL_MAX)
            raw_amounts = r.items(f"{at}.amounts", row.get("amounts"))
            amounts = [r.money(f"{at}.amounts[{j}]", a) for j, a in enumerate(raw_amounts)]
            if len(raw_amounts) not in (3, 4):
                r.fail(
                    f"{at}.amounts", f"lists {len(raw_amounts)} prizes; a payout row pays places 1 to 3 or 4"
                )
            elif count is not None and None not in amounts:
                rows.append(
                    PayoutRowData(member_count=count, amounts=tuple(a for a in amounts if a is not None))
                )
        elif name == "wsop_table":
            low = r.whole(f"{at}.min_members", row.get("min_members"), high=SMALL_MAX)
            high = r.whole(f"{at}.max_members", row.get("max_members"), high=SMALL_MAX)
            prizes = r.whole(f"{at}.prizes", row.get("prizes"), low=0, high=SMALL_MAX)
            if low is not None and high is not None and high < low:
                r.fail(f"{at}.max_members", f"{high} is below min_members {low}")
            elif low is not None and high is not None and prizes is not None:
                rows.append(WsopRowData(min_members=low, max_members=high, prizes=prizes))
        else:
            kind = row.get("kind", BlindLevel.Kind.LEVEL.value)
            if kind not in BlindLevel.Kind.values:
                r.fail(f"{at}.kind", f"{kind!r} must be 'level' or 'break'")
            blinds = {
                part: r.whole(f"{at}.{part}", row.get(part, 0), low=0, high=WHOLE_MAX)
                for part in ("small_blind", "big_blind", "ante")
            }
            minutes = r.whole(f"{at}.minutes", row.get("minutes"), required=False, low=0, high=SMALL_MAX)
            if row.get("minutes") is not None and minutes is None:
                continue
            note = r.text(f"{at}.note", row.get("note"), required=False, max_length=120)
            if kind in BlindLevel.Kind.values and None not in blinds.values():
                rows.append(BlindLevelData(kind=kind, minutes=minutes, note=note, **blinds))  # type: ignore[arg-type]
    return tuple(rows)


@dataclass(frozen=True)
class _SeasonPart:
    """The ``season`` object: its name, and its first and last days (None when the start is not a date)."""

    name: str
    start: dt.date | None
    end: dt.date | None


def _season_read(r: _Reader, raw: Any) -> _SeasonPart:
    season = r.obj("season", raw)
    name = r.text("season.name", season.get("name"), max_length=9)
    start = r.date("season.start", season.get("start"))
    match = SEASON_RE.match(name or "")
    if name and not match:
        r.fail("season.name", f"{name!r} is not a season name like 2026-27")
    elif match and (int(match.group(1)) + 1) % 100 != int(match.group(2)):
        r.fail("season.name", f"{name!r}: the second year must follow the first")
    if start and match and start != dt.date(int(match.group(1)), 8, 1):
        r.fail("season.start", f"season {name} starts on {match.group(1)}-08-01, not {start}")
    end = dt.date(start.year + 1, 7, 31) if start else None
    return _SeasonPart(name=name, start=start, end=end)


def _venues_read(r: _Reader, raw_venues: Any) -> list[tuple[str, str]]:
    venues: list[tuple[str, str]] = []
    for i, raw in enumerate(r.items("venues", raw_venues)):
        v = r.obj(f"venues[{i}]", raw)
        vname = r.text(f"venues[{i}].name", v.get("name"), max_length=100)
        if vname and vname in {n for n, _a in venues}:
            r.fail(f"venues[{i}].name", f"venue {vname!r} is listed twice")
        venues.append((vname, r.text(f"venues[{i}].address", v.get("address"), required=False)))
    return venues


def _members_read(r: _Reader, raw_members: Any, *, rules: SeasonRules) -> list[MemberRow]:
    n_events = rules.events_per_season
    members: list[MemberRow] = []
    for i, raw in enumerate(r.items("members", raw_members)):
        where = f"members[{i}]"
        m = r.obj(where, raw)
        key = r.text(f"{where}.key", m.get("key"), max_length=40)
        if key and not KEY_RE.match(key):
            r.fail(f"{where}.key", f"{key!r} must be lower-case letters, digits, - or _")
        if key and key in {x.key for x in members}:
            r.fail(f"{where}.key", f"member {key!r} is listed twice")
        first_event = r.whole(f"{where}.first_event", m.get("first_event", 1), high=n_events) or 1
        left = r.whole(
            f"{where}.left_after_event", m.get("left_after_event"), required=False, low=0, high=n_events
        )
        if left is not None and left < first_event - 1:
            r.fail(f"{where}.left_after_event", f"{left} is before the member's first event {first_event}")
        email = r.text(f"{where}.email", m.get("email"), required=False, max_length=254)
        if email and email_problem(email):
            r.fail(f"{where}.email", f"{email!r} is not a valid e-mail address")
        members.append(
            MemberRow(
                key=key,
                first_name=r.text(f"{where}.first_name", m.get("first_name"), max_length=60),
                last_name=r.text(f"{where}.last_name", m.get("last_name"), required=False, max_length=60),
                date_of_birth=r.date(f"{where}.date_of_birth", m.get("date_of_birth")),
                email=email,
                sponsor=m.get("sponsor") if isinstance(m.get("sponsor"), str) else None,
                first_event=first_event,
                left_after_event=left,
            )
        )
        if m.get("sponsor") is not None and not isinstance(m.get("sponsor"), str):
            r.fail(f"{where}.sponsor", "must be a member key or null")
    return members


def _sponsors_check(r: _Reader, members: list[MemberRow], *, index: dict[str, MemberRow]) -> None:
    for i, row in enumerate(members):
        if row.sponsor is not None and row.sponsor not in index:
            r.fail(f"members[{i}].sponsor", f"unknown member {row.sponsor!r}")


def _seats_check(r: _Reader, index: dict[str, MemberRow], *, rules: SeasonRules) -> None:
    """No event has more members holding a seat than the club allows (SPEC §2)."""
    for event_number in range(1, rules.events_per_season + 1):
        seated = sum(1 for row in index.values() if seat_held_at(seat=row, event_number=event_number))
        if seated > rules.max_members:
            r.fail(
                "members",
                f"{seated} members hold a seat at event {event_number}; the club allows {rules.max_members}",
            )
            break


def _events_read(
    r: _Reader,
    raw_events: Any,
    *,
    season: _SeasonPart,
    venue_names: set[str],
    index: dict[str, MemberRow],
    rules: SeasonRules,
) -> list[EventRow]:
    events: list[EventRow] = []
    # A member's substitutes over the whole season, in the file's order (SPEC §4: at most the season's limit).
    substitutes: Counter[str] = Counter()
    for i, raw in enumerate(r.items("events", raw_events)):
        where = f"events[{i}]"
        e = r.obj(where, raw)
        number = r.whole(f"{where}.number", e.get("number"), high=rules.events_per_season)
        if number is not None and number in {x.number for x in events}:
            r.fail(f"{where}.number", f"event {number} is listed twice")
        date = r.date(f"{where}.date", e.get("date"))
        if date and season.start and season.end and not season.start <= date <= season.end:
            r.fail(f"{where}.date", f"{date} is outside season {season.name}")
        venue = r.text(f"{where}.venue", e.get("venue"), required=False, max_length=100) or None
        if venue is not None and venue not in venue_names:
            r.fail(f"{where}.venue", f"unknown venue {venue!r}")
        results = _results_read(
            r, e.get("results"), where=where, number=number, index=index, substitutes=substitutes, rules=rules
        )
        if number is not None and date is not None:
            events.append(EventRow(number=number, date=date, venue=venue, results=tuple(results)))
    return events


def _results_read(
    r: _Reader,
    raw_results: Any,
    *,
    where: str,
    number: int | None,
    index: dict[str, MemberRow],
    substitutes: Counter[str],
    rules: SeasonRules,
) -> list[ResultRow]:
    """One event's results: every member holding a seat at it, each once, places 1..N (SPEC §5, §13)."""
    results: list[ResultRow] = []
    seen: dict[str, int] = {}
    places: Counter[int] = Counter()
    for j, raw_result in enumerate(r.items(f"{where}.results", raw_results)):
        result = _result_read(
            r,
            raw_result,
            rw=f"{where}.results[{j}]",
            j=j,
            number=number,
            index=index,
            seen=seen,
            places=places,
            substitutes=substitutes,
            rules=rules,
        )
        if result is not None:
            results.append(result)
    if places and sorted(places) != list(range(1, len(places) + 1)):
        missing = sorted(set(range(1, max(places) + 1)) - set(places))
        r.fail(
            f"{where}.results", f"places must run 1..N without gaps; missing {', '.join(map(str, missing))}"
        )
    if number is not None and results:
        for key in sorted(
            k for k, row in index.items() if seat_held_at(seat=row, event_number=number) and k not in seen
        ):
            r.fail(f"{where}.results", f"member {key!r} holds a seat at event {number} but has no result")
    return results


def _result_read(
    r: _Reader,
    raw_result: Any,
    *,
    rw: str,
    j: int,
    number: int | None,
    index: dict[str, MemberRow],
    seen: dict[str, int],
    places: Counter[int],
    substitutes: Counter[str],
    rules: SeasonRules,
) -> ResultRow | None:
    """One member's result (``results[j]``): a place or a status, a substitute and who gets the prize; None
    when the member is unknown or listed twice, or neither or both of a place and a status are given."""
    res = r.obj(rw, raw_result)
    member = r.text(f"{rw}.member", res.get("member"), max_length=40)
    if member and member not in index:
        r.fail(f"{rw}.member", f"unknown member {member!r}")
        return None
    if member in seen:
        r.fail(f"{rw}.member", f"{member!r} is listed twice in this event (also results[{seen[member]}])")
        return None
    if member:
        seen[member] = j
    if member and number is not None and not seat_held_at(seat=index[member], event_number=number):
        r.fail(f"{rw}.member", f"{member!r} does not hold a seat at event {number}")
    has_place, status = "place" in res and res["place"] is not None, res.get("status")
    if has_place == (status is not None):
        r.fail(rw, "give either a place or a status")
        return None
    place = _place_read(r, res, rw=rw, has_place=has_place, status=status, places=places, rules=rules)
    substitute = r.text(f"{rw}.substitute", res.get("substitute"), required=False, max_length=120)
    prize_to = res.get("prize_to", "member")
    if prize_to not in ("member", "substitute") or (prize_to == "substitute" and not substitute):
        r.fail(f"{rw}.prize_to", "must be 'member', or 'substitute' when a substitute played")
    abuse = res.get("removed_for_abuse", False)
    if not isinstance(abuse, bool) or (abuse and not has_place):
        r.fail(f"{rw}.removed_for_abuse", "must be true or false, and true only beside a place")
    if substitute and member:
        _substitute_count(r, rw=rw, member=member, substitutes=substitutes, rules=rules)
    return ResultRow(
        member=member,
        place=place,
        status="placed" if has_place else (status or ""),
        substitute=substitute,
        prize_to=prize_to if prize_to in ("member", "substitute") else "member",
        removed_for_abuse=abuse is True,
    )


def _place_read(
    r: _Reader,
    res: dict[str, Any],
    *,
    rw: str,
    has_place: bool,
    status: Any,
    places: Counter[int],
    rules: SeasonRules,
) -> int | None:
    """The result's place (counted: a place given twice fails), or a status that must be a known one."""
    place = None
    if has_place:
        place = r.whole(f"{rw}.place", res.get("place"), high=rules.max_members)
        if place is not None:
            places[place] += 1
            if places[place] == 2:
                r.fail(f"{rw}.place", f"place {place} given twice")
    elif status not in STATUSES:
        r.fail(f"{rw}.status", f"{status!r} is not one of {', '.join(STATUSES)}")
    return place


def _substitute_count(
    r: _Reader, *, rw: str, member: str, substitutes: Counter[str], rules: SeasonRules
) -> None:
    """One more substitute for ``member``; one more than the season allows fails."""
    substitutes[member] += 1
    if substitutes[member] == rules.substitutes_per_season + 1:
        r.fail(
            f"{rw}.substitute",
            f"{member!r} sends a substitute for the {substitutes[member]}th time; "
            f"the season allows {rules.substitutes_per_season}",
        )


def _ages_check(
    r: _Reader,
    members: list[MemberRow],
    *,
    event_dates: dict[int, dt.date],
    start: dt.date | None,
    rules: SeasonRules,
) -> None:
    """Every member is of age on the day they were admitted: their first event's date (SPEC §2)."""
    for i, row in enumerate(members):
        if row.date_of_birth is None:
            continue
        admitted = event_dates.get(row.first_event) or start
        if admitted and age_on(born=row.date_of_birth, on=admitted) < rules.minimum_age:
            r.fail(f"members[{i}].date_of_birth", f"{row.key!r} is under {rules.minimum_age} on {admitted}")


def _payments_read(r: _Reader, raw_payments: Any, *, index: dict[str, MemberRow]) -> list[PaymentRow]:
    payments: list[PaymentRow] = []
    for i, raw in enumerate(r.items("payments", raw_payments)):
        where = f"payments[{i}]"
        p = r.obj(where, raw)
        member = r.text(f"{where}.member", p.get("member"), max_length=40)
        if member and member not in index:
            r.fail(f"{where}.member", f"unknown member {member!r}")
        date = r.date(f"{where}.date", p.get("date"))
        amount = r.money(f"{where}.amount", p.get("amount"), positive=True)
        method = p.get("method", "cash")
        if method not in ("cash", "check"):
            r.fail(f"{where}.method", f"{method!r} must be 'cash' or 'check'")
        if member in index and date and amount is not None:
            payments.append(
                PaymentRow(
                    member,
                    date,
                    amount,
                    method,
                    r.text(f"{where}.reference", p.get("reference"), required=False),
                )
            )
    return payments


def _tie_breaks_read(r: _Reader, raw_tie_breaks: Any, *, index: dict[str, MemberRow]) -> list[TieBreakRow]:
    tie_breaks: list[TieBreakRow] = []
    for i, raw in enumerate(r.items("tie_breaks", raw_tie_breaks)):
        where = f"tie_breaks[{i}]"
        t = r.obj(where, raw)
        group = [k for k in r.items(f"{where}.members", t.get("members")) if isinstance(k, str)]
        order = [k for k in r.items(f"{where}.order", t.get("order")) if isinstance(k, str)]
        for k in group:
            if k not in index:
                r.fail(f"{where}.members", f"unknown member {k!r}")
        if len(group) < 2 or sorted(group) != sorted(order) or len(set(group)) != len(group):
            r.fail(f"{where}.order", "must list the same two or more members as 'members', each once")
        else:
            tie_breaks.append(
                TieBreakRow(tuple(group), tuple(order), r.text(f"{where}.how", t.get("how"), required=False))
            )
    return tie_breaks


def _declined_read(r: _Reader, raw_declined: Any, *, index: dict[str, MemberRow]) -> list[str]:
    declined = []
    for i, k in enumerate(r.items("wsop_declined", raw_declined)):
        if not isinstance(k, str) or k not in index:
            r.fail(f"wsop_declined[{i}]", f"unknown member {k!r}")
        else:
            declined.append(k)
    return declined


def _wsop_results_read(r: _Reader, raw_results: Any, *, index: dict[str, MemberRow]) -> list[WsopResultRow]:
    wsop_results: list[WsopResultRow] = []
    for i, raw in enumerate(r.items("wsop_results", raw_results)):
        where = f"wsop_results[{i}]"
        w = r.obj(where, raw)
        representative = w.get("member")
        if not isinstance(representative, str) or representative not in index:
            r.fail(f"{where}.member", f"unknown member {representative!r}")
            continue
        gross = r.money(f"{where}.gross", w.get("gross"))
        tips = r.money(f"{where}.tips", w.get("tips", "0.00"))
        if gross is not None and tips is not None:
            if tips > gross:
                r.fail(f"{where}.tips", "tips cannot exceed the gross winnings")
            else:
                wsop_results.append(WsopResultRow(representative, gross, tips))
    return wsop_results
