"""The season report (SPEC §13, format ``ncpc-season-report/1``), computed by the same selectors and
services the pages use — never by a second copy of the rules."""

import datetime as dt
from collections.abc import Iterable
from typing import Any

from events.models import Event, Season
from events.placings import Placing
from events.rules import SeasonRules
from events.selectors import season_events, season_placings, season_rules
from events.services.event_fund import WsopTableMissing, wsop_allocation
from events.services.places import points_for
from finance.models import WsopResult
from finance.selectors import dues as finance_dues
from finance.services.escrow import wsop_result_split
from finance.services.payouts import PayoutTableMissing, payout_lines
from members.models import Membership
from members.selectors import season_memberships
from ncpc.core.clock import club_today
from ncpc.core.money import ZERO, money_str
from standings.selectors import SeasonStandings, counted_events, roster_from, season_standings

FORMAT = "ncpc-season-report/1"


def report_as_of(*, season: Season, as_of: dt.date | None) -> dt.date:
    """Default today, clipped to the season (SPEC §13)."""
    day = as_of or club_today()
    return max(season.start, min(day, season.end))


def season_report(*, season: Season, as_of: dt.date | None = None) -> dict[str, Any]:
    as_of = report_as_of(season=season, as_of=as_of)
    rules = season_rules(season)
    season_events_all = season_events(season=season)
    memberships = season_memberships(season=season)
    # The events whose results count, dated on or before as_of: their placings with the people and prizes,
    # for the payouts, are read once and give the standings their places.
    finals = counted_events(season=season, through=as_of, events=season_events_all)
    all_placings = season_placings(events=finals)
    standings = season_standings(
        season=season,
        through=as_of,
        rules=rules,
        events=season_events_all,
        memberships=memberships,
        placings=all_placings,
    )
    member_count = standings.member_count
    events = _events_report(finals=finals, all_placings=all_placings, memberships=memberships, rules=rules)
    accounts = finance_dues.season_dues_accounts(
        season=season, rules=rules, events=season_events_all, memberships=memberships
    )
    dues, departed = _dues_report(accounts=accounts, as_of=as_of)
    wsop = _wsop_report(rules=rules, member_count=member_count, standings=standings)
    distributions = _wsop_distributions_report(season=season, rules=rules, memberships=memberships)
    return {
        "format": FORMAT,
        "season": season.name,
        "as_of": as_of.isoformat(),
        "member_count": member_count,
        "standings": [
            {
                "member": row.key,
                "rank": row.rank,
                "points": row.points,
                "events_played": row.events_played,
                "wsop": row.wsop,
            }
            for row in standings.rows
        ],
        "events": events,
        "dues": dues,
        "departed": sorted(departed),
        "wsop": wsop,
        "wsop_distributions": distributions,
    }


def _events_report(
    *,
    finals: list[Event],
    all_placings: dict[int, list[Placing]],
    memberships: list[Membership],
    rules: SeasonRules,
) -> list[dict[str, Any]]:
    """Each counted event: its member count, the points of each place and the payouts."""
    events = []
    for event in finals:
        placings = all_placings.get(event.pk, [])
        count = len(roster_from(memberships, event.number))
        try:
            payouts = [
                {
                    "place": p.place,
                    "member": p.member_key,
                    "paid_to": p.paid_to,
                    "amount": money_str(p.amount),
                }
                # finance.selectors.payouts.event_payout_lines, with what this report has read already
                for p in (
                    payout_lines(rules=rules, member_count=count, placings=placings) if placings else []
                )
            ]
        except PayoutTableMissing as exc:
            payouts = [{"error": str(exc)}]
        events.append(
            {
                "number": event.number,
                "date": event.date.isoformat(),
                "member_count": count,
                "points": {
                    p.member_key: points_for(place=p.place, points_table=rules.points_table) for p in placings
                },
                "payouts": payouts,
            }
        )
    return events


def _dues_report(
    *, accounts: Iterable[finance_dues.DuesAccount], as_of: dt.date
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each member's dues on ``as_of`` (by member), and the members who left."""
    dues = []
    departed: list[str] = []
    for account in accounts:
        status = account.status(on=as_of)
        row: dict[str, Any] = {
            "member": account.holder.person.key,
            # SPEC §15.1: charged = dues + admin fee + late fees by as_of; balance = charged − paid.
            "charged": money_str(status.charged + status.late_fees),
            "paid": money_str(status.paid),
            "late_fees": money_str(status.late_fees),
            "balance": money_str(status.balance),
            # finance.selectors.dues.good_standing, from the account (its money and suspensions) read above
            "good_standing": account.in_good_standing(membership_id=account.holder.pk, on=as_of),
        }
        if account.departed(on=as_of):
            # SPEC §16.2: a member who left has no credit; what they paid beyond their charges is the club's.
            row["forfeited"] = money_str(max(-status.balance, ZERO))
            departed.append(row["member"])
        dues.append(row)
    dues.sort(key=lambda row: str(row["member"]))
    return dues, departed


def _wsop_report(*, rules: SeasonRules, member_count: int, standings: SeasonStandings) -> dict[str, Any]:
    """The WSOP money for this many members, the qualifiers and the undecided."""
    try:
        allocation = wsop_allocation(rules=rules, member_count=member_count)
        wsop: dict[str, Any] = {
            "prizes": allocation.prizes,
            "entry": money_str(rules.wsop_entry),
            "expenses": money_str(rules.wsop_expenses),
            "escrow": money_str(allocation.escrow),
            "monthly_event_funds": money_str(allocation.monthly_event_funds),
            "per_event": money_str(allocation.per_event),
        }
    except WsopTableMissing as exc:
        wsop = {"prizes": None, "error": str(exc)}
    wsop["qualifiers"] = [row.key for row in standings.representatives]
    wsop["undecided"] = [row.key for row in standings.rows if row.wsop == "undecided"]
    return wsop


def _wsop_distributions_report(
    *, season: Season, rules: SeasonRules, memberships: list[Membership]
) -> list[dict[str, Any]]:
    """How each WSOP result recorded is shared out."""
    distributions = []
    # One read of the results, without joins: the season, the representative and the decliner (memberships of
    # the season, with their people) are among what was read above; each split uses the season's rules and
    # memberships too.
    by_pk = {m.pk: m for m in memberships}
    for result in WsopResult.objects.filter(season=season).order_by("pk"):
        result.season = season
        result.representative = by_pk[result.representative_id]
        if result.declined_id is not None:
            result.declined = by_pk[result.declined_id]
        split = wsop_result_split(result=result, rules=rules, memberships=memberships)
        distributions.append(
            {
                "member": result.representative.person.key,
                "gross": money_str(split.gross),
                "tips": money_str(split.tips),
                "net": money_str(split.net),
                "representative": money_str(split.representative),
                "shares": {key: money_str(amount) for key, amount in sorted(split.shares.items())},
            }
        )
    return distributions
