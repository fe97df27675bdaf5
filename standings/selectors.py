"""Reads that the standings pages, the home panel, the e-mail and other apps share.

All rule logic is in ``standings.services``; this module gathers the data (placings through
``events.selectors.event_placings``, rosters through ``members.selectors``) and calls the calculators.
"""

import copy
import datetime as dt
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, IntegerField, QuerySet, Value

from events import selectors as event_selectors
from events.models import Event, Season
from events.placings import Placing
from events.rules import SeasonRules
from events.services.event_fund import WsopTableMissing, wsop_prizes
from finance.selectors import payouts as finance_payouts
from members import selectors as member_selectors
from members.models import Membership, Person
from members.services.late_joiners import join_terms, wsop_eligibility_kept
from members.services.seat_terms import seat_held_at, seat_left_on
from ncpc.core.errors import NcpcError
from standings.models import TieBreakEntry, WsopDecline
from standings.services.career import CareerStats, career_stats
from standings.services.points import EventPlaces, MemberTotal, cumulative_points, season_totals
from standings.services.ranking import Ranked, TieBreakOrder, standings_ranks
from standings.services.wsop import wsop_race, wsop_statuses


@dataclass
class StandingRow:
    membership: Membership
    rank: int
    shared: bool
    points: int
    events_played: int
    points_per_event: float | None
    per_event: dict[int, int]
    places: dict[int, int]
    cumulative: list[int]
    eligible: bool
    wsop: str  # SPEC §13 status
    race: str | None  # clinched / open / out of reach (eligible members only)

    @property
    def person(self) -> Person:
        return self.membership.person

    @property
    def key(self) -> str:
        return self.membership.person.key

    @property
    def rank_label(self) -> str:
        return f"T{self.rank}" if self.shared else str(self.rank)


@dataclass
class SeasonStandings:
    season: Season
    rules: SeasonRules
    events: list[Event]  # the events whose results count, in number order
    rows: list[StandingRow]
    member_count: int  # members at the season's first event
    prizes: int | None  # None when the WSOP table has no row for the member count
    events_left: int
    problem: str = ""
    tied_groups: list[list[StandingRow]] = field(default_factory=list)
    memberships: list[Membership] = field(default_factory=list)  # every membership of the season

    @property
    def event_numbers(self) -> list[int]:
        return [e.number for e in self.events]

    def row_for(self, membership_id: int) -> StandingRow | None:
        return next((r for r in self.rows if r.membership.pk == membership_id), None)

    def row_for_user(self, user_id: int | None) -> StandingRow | None:
        """The login's row (the people are read already: no query)."""
        if user_id is None:
            return None
        return next((r for r in self.rows if r.membership.person.user_id == user_id), None)

    def row_for_person(self, person: Person | None) -> StandingRow | None:
        if person is None:
            return None
        return next((r for r in self.rows if r.membership.person_id == person.pk), None)

    @property
    def representatives(self) -> list[StandingRow]:
        return [r for r in self.rows if r.wsop in ("qualified", "replacement")]


def counted_events(
    *, season: Season, through: dt.date | None = None, events: Iterable[Event] | None = None
) -> list[Event]:
    """Events whose results count (final, or reopened for a correction: SPEC §15.11), dated on or before
    ``through``, in number order. ``events``: the season's events when the caller has read them."""
    return [
        event
        for event in (events if events is not None else event_selectors.season_events(season=season))
        if event.counts and (through is None or event.date <= through)
    ]


def roster_from(memberships: Iterable[Membership], event_number: int) -> list[Membership]:
    """``members.selectors.roster_for_event`` over memberships already read: joined by then, not left before."""
    return [m for m in memberships if seat_held_at(seat=m, event_number=event_number)]


def seats_as_of(
    *, memberships: Iterable[Membership], on: dt.date, events: Iterable[Event], season_start: dt.date
) -> list[Membership]:
    """The memberships as they stood on ``on``: a member who left the seat after that day (a removal in
    December, read on the October report) still holds it there; the others as they are. A report of a past
    day says who was eligible then, not what happened after it. The rows are copies: nothing is saved."""
    dates = {e.number: e.date for e in events}
    seats = []
    for m in memberships:
        left = seat_left_on(
            left_on=m.left_on,
            left_after_event=m.left_after_event,
            event_dates=dates,
            season_start=season_start,
        )
        if left is not None and left > on:
            m = copy.copy(m)
            m.left_after_event, m.left_on, m.how_left = None, None, ""
        seats.append(m)
    return seats


def _tie_breaks_and_declines(*, season_id: int) -> QuerySet[Any]:
    """The season's tie-break entries and WSOP declines in one query: (tie-break id, recorded at, position,
    points tied on, membership id), a decline with no tie-break id."""
    whole: IntegerField[int, int] = IntegerField()
    # One UNION ALL, the same columns in the same order (typed Values where declines have none: PostgreSQL
    # matches a UNION's column types pairwise).
    entries = (
        TieBreakEntry.objects.filter(tie_break__season_id=season_id)
        .order_by()
        .annotate(
            t=F("tie_break_id"),
            r=F("tie_break__recorded_at"),
            o=F("position"),
            p=F("tie_break__points"),
            m=F("membership_id"),
        )
        .values_list("t", "r", "o", "p", "m")
    )
    declines = (
        WsopDecline.objects.filter(season_id=season_id)
        .order_by()
        .annotate(
            t=Value(None, output_field=whole),
            r=F("recorded_at"),
            o=Value(0, output_field=whole),
            p=Value(None, output_field=whole),
            m=F("membership_id"),
        )
        .values_list("t", "r", "o", "p", "m")
    )
    return entries.union(declines, all=True)


def season_standings(
    *,
    season: Season,
    through: dt.date | None = None,
    rules: SeasonRules | None = None,
    events: list[Event] | None = None,
    memberships: list[Membership] | None = None,
    placings: dict[int, list[Placing]] | None = None,
) -> SeasonStandings:
    """The standings after the season's final events (those dated ≤ ``through`` when given, with the roster
    as it stood on that day: ``seats_as_of``).

    Queries: the season's events, rules and memberships (with their declines), unless the caller passes them,
    the tie-breaks, and one query for the places of all counted events (``season_places``: the points need
    no more of them), unless the caller has read their placings (``season_placings`` of the same events).
    """
    rules = rules or event_selectors.season_rules(season)
    season_events = events if events is not None else event_selectors.season_events(season=season)
    events = counted_events(season=season, through=through, events=season_events)
    by_id = _season_roster(season=season, through=through, events=season_events, memberships=memberships)
    totals = _season_totals_read(rules=rules, events=events, placings=placings, by_id=by_id)
    tie_breaks, declined = _tie_breaks_and_declines_read(season_id=season.pk)
    ranked = standings_ranks(
        totals={mid: t.points for mid, t in totals.items()},
        tie_breaks=[TieBreakOrder(points=p, order=tuple(order)) for p, order in tie_breaks.values()],
        sort_keys={mid: m.person.key for mid, m in by_id.items()},
    )

    member_count = len(roster_from(by_id.values(), 1))
    final_numbers = {e.number for e in events}
    still_to_play = set(range(1, rules.events_per_season + 1)) - final_numbers
    eligible, wsop = _wsop_read(
        rules=rules,
        by_id=by_id,
        member_count=member_count,
        ranked=ranked,
        totals=totals,
        declined=declined,
        still_to_play=still_to_play,
    )
    rows = _standing_rows(
        ranked=ranked,
        totals=totals,
        by_id=by_id,
        numbers=[e.number for e in events],
        eligible=eligible,
        wsop=wsop,
    )
    return SeasonStandings(
        season=season,
        rules=rules,
        events=events,
        rows=rows,
        member_count=member_count,
        prizes=wsop.prizes,
        events_left=len(still_to_play),
        problem=wsop.problem,
        tied_groups=_tied_groups(rows),
        memberships=list(by_id.values()),
    )


def _season_roster(
    *, season: Season, through: dt.date | None, events: list[Event], memberships: list[Membership] | None
) -> dict[int, Membership]:
    """The season's memberships by id (read unless given); after a past day, the roster as it stood then."""
    if memberships is None:
        memberships = member_selectors.season_memberships(season=season)
    if through is not None:
        # The standings after a past day: eligibility and the WSOP seats as the roster stood that day.
        memberships = seats_as_of(
            memberships=memberships, on=through, events=events, season_start=season.start
        )
    by_id = {m.pk: m for m in sorted(memberships, key=lambda m: m.pk)}
    return by_id


def _tied_groups(rows: list[StandingRow]) -> list[list[StandingRow]]:
    """The rows that share a rank, a group for each rank shared."""
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        if row.shared:
            groups.setdefault(row.rank, []).append(row)
    return list(groups.values())


def _season_totals_read(
    *,
    rules: SeasonRules,
    events: list[Event],
    placings: dict[int, list[Placing]] | None,
    by_id: dict[int, Membership],
) -> dict[int, MemberTotal]:
    """Each membership's points from the counted events: their places read in one query (``season_places``),
    unless the caller has read their placings."""
    if placings is None:
        by_event = event_selectors.season_places(events=events)
    else:
        by_event = event_selectors.places_of(placings)
    places = [EventPlaces(number=e.number, places=by_event.get(e.pk, {})) for e in events]
    totals = season_totals(points_table=rules.points_table, events=places, membership_ids=by_id)
    # A placing for a membership of another season would be a bug elsewhere; leave it out rather than fail.
    return {mid: t for mid, t in totals.items() if mid in by_id}


def _tie_breaks_and_declines_read(*, season_id: int) -> tuple[dict[int, tuple[int, list[int]]], set[int]]:
    """The season's tie-breaks (id → the points tied on, the memberships in their recorded order) and the
    memberships that declined the WSOP, in one query."""
    tie_breaks: dict[int, tuple[int, list[int]]] = {}
    extras = list(_tie_breaks_and_declines(season_id=season_id))
    for tie_break_id, _at, _position, tied_on, membership_id in sorted(
        (row for row in extras if row[0] is not None), key=lambda row: (row[1], row[0], row[2])
    ):
        tie_breaks.setdefault(tie_break_id, (tied_on, []))[1].append(membership_id)
    return tie_breaks, {row[4] for row in extras if row[0] is None}


def _wsop_eligible(
    *,
    rules: SeasonRules,
    last_roster: Iterable[Membership],
    totals: dict[int, MemberTotal],
    still_to_play: set[int],
) -> set[int]:
    """The memberships that can still qualify for the WSOP: before the season's end, eligible while the
    condition can still be met with the events left."""
    eligible = set()
    for m in last_roster:
        terms = join_terms(rules=rules, first_event=m.first_event)
        played = set(totals[m.pk].places) if m.pk in totals else set()
        if wsop_eligibility_kept(terms=terms, events_played=played | still_to_play):
            eligible.add(m.pk)
    return eligible


@dataclass(frozen=True)
class _WsopStanding:
    prizes: int | None  # None: no WSOP table row for this member count (``problem`` says so)
    problem: str
    statuses: dict[int, str]  # membership id → its WSOP status
    race: dict[int, str]  # membership id → where it stands in the race for the seats


def _wsop_standing(
    *,
    rules: SeasonRules,
    member_count: int,
    ranked: Sequence[Ranked],
    totals: dict[int, MemberTotal],
    eligible: set[int],
    declined: set[int],
    events_left: int,
) -> _WsopStanding:
    """Each member's WSOP status and place in the race, from the ranks and the seats the table gives."""
    try:
        prizes = wsop_prizes(rules=rules, member_count=member_count)
    except WsopTableMissing as exc:
        statuses = {
            r.membership_id: ("none" if r.membership_id in eligible else "ineligible") for r in ranked
        }
        return _WsopStanding(prizes=None, problem=str(exc), statuses=statuses, race={})
    return _WsopStanding(
        prizes=prizes,
        problem="",
        statuses=wsop_statuses(ranked=ranked, eligible=eligible, prizes=prizes, declined=declined),
        race=wsop_race(
            points={mid: t.points for mid, t in totals.items()},
            eligible=eligible - declined,
            prizes=prizes,
            events_left=events_left,
            max_points_per_event=max(rules.points_table, default=0),
        ),
    )


def _wsop_read(
    *,
    rules: SeasonRules,
    by_id: dict[int, Membership],
    member_count: int,
    ranked: Sequence[Ranked],
    totals: dict[int, MemberTotal],
    declined: set[int],
    still_to_play: set[int],
) -> tuple[set[int], _WsopStanding]:
    """The memberships that can still qualify for the WSOP, and each member's WSOP status and race."""
    eligible = _wsop_eligible(
        rules=rules,
        last_roster=roster_from(by_id.values(), rules.events_per_season),
        totals=totals,
        still_to_play=still_to_play,
    )
    wsop = _wsop_standing(
        rules=rules,
        member_count=member_count,
        ranked=ranked,
        totals=totals,
        eligible=eligible,
        declined=declined,
        events_left=len(still_to_play),
    )
    return eligible, wsop


def _standing_rows(
    *,
    ranked: Sequence[Ranked],
    totals: dict[int, MemberTotal],
    by_id: dict[int, Membership],
    numbers: list[int],
    eligible: set[int],
    wsop: _WsopStanding,
) -> list[StandingRow]:
    rows = []
    for r in ranked:
        total = totals[r.membership_id]
        rows.append(
            StandingRow(
                membership=by_id[r.membership_id],
                rank=r.rank,
                shared=r.shared,
                points=r.points,
                events_played=total.events_played,
                points_per_event=total.points_per_event,
                per_event=total.per_event,
                places=total.places,
                cumulative=cumulative_points(per_event=total.per_event, event_numbers=numbers),
                eligible=r.membership_id in eligible,
                wsop=wsop.statuses[r.membership_id],
                race=wsop.race.get(r.membership_id),
            )
        )
    return rows


def wsop_statuses_of(*, season: Season) -> dict[int, str]:
    """Membership id → WSOP status in the season's standings now (finance asks this through its hook)."""
    return {row.membership.pk: row.wsop for row in season_standings(season=season).rows}


@dataclass
class CareerRow:
    person: Person
    stats: CareerStats


def _career_places(
    *, seasons: Collection[Season] | None = None
) -> tuple[dict[int, list[int]], dict[int, int], dict[int, Person]]:
    """Places and cashes per person over the final events of ``seasons`` (all when None).

    Returns (person id → places, person id → cashes, person id → Person).
    """
    memberships = Membership.objects.select_related("person")
    # Final events, and those reopened for a correction (their last final results count, SPEC §15.11).
    events = Event.objects.order_by("date", "pk")
    if seasons is not None:
        memberships = memberships.filter(season__in=seasons)
        events = events.filter(season__in=seasons)
    by_membership = {m.pk: m.person for m in memberships}
    places: dict[int, list[int]] = {}
    cashes: dict[int, int] = {}
    people: dict[int, Person] = {}
    finals = [e for e in events if e.counts]
    by_event = event_selectors.season_placings(events=finals)
    for event in finals:
        try:
            paid_places = {line.place for line in finance_payouts.event_payout_lines(event=event)}
        except NcpcError:  # no payout row for that member count: places still count, cashes cannot
            paid_places = set()
        for placing in by_event.get(event.pk, []):
            person = by_membership.get(placing.membership_id)
            if person is None:
                continue
            people[person.pk] = person
            places.setdefault(person.pk, []).append(placing.place)
            if placing.place in paid_places:
                cashes[person.pk] = cashes.get(person.pk, 0) + 1
    return places, cashes, people


def career_table() -> list[CareerRow]:
    """Career stats of everyone who ever had a place, most events first."""
    places, cashes, people = _career_places()
    rows = [
        CareerRow(person=people[pid], stats=career_stats(places=places[pid], cashes=cashes.get(pid, 0)))
        for pid in places
    ]
    rows.sort(key=lambda r: (-r.stats.wins, -r.stats.events, r.person.key))
    return rows


def person_career(*, person: Person) -> tuple[CareerStats, list[dict[str, Any]]]:
    """A person's career stats and, per season they held a seat, their final (or current) rank and points."""
    seasons = list(Season.objects.filter(memberships__person=person).distinct().order_by("-start", "-pk"))
    places, cashes, _people = _career_places(seasons=seasons)
    per_season = []
    for season in seasons:
        standings = season_standings(season=season)
        row = standings.row_for_person(person)
        per_season.append({"season": season, "row": row, "played": len(standings.events)})
    stats = career_stats(places=places.get(person.pk, []), cashes=cashes.get(person.pk, 0))
    return stats, per_season
