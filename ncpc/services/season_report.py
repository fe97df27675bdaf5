"""The season report (SPEC §13, format ``ncpc-season-report/1``), computed by the same selectors and
services the pages use — never by a second copy of the rules."""

import datetime as dt
from typing import Any

from events.models import Event, Season
from events.selectors import event_placings, season_rules
from finance import selectors as finance_selectors
from finance.models import WsopResult
from finance.services.escrow import wsop_result_split
from finance.services.payouts import PayoutTableMissing
from finance.services.wsop import WsopTableMissing, wsop_allocation
from members import selectors as members_selectors
from ncpc.clock import club_today
from ncpc.money import money_str
from standings.selectors import season_standings
from standings.services.points import placing_points

FORMAT = "ncpc-season-report/1"


def report_as_of(*, season: Season, as_of: dt.date | None) -> dt.date:
    """Default today, clipped to the season (SPEC §13)."""
    day = as_of or club_today()
    return max(season.start, min(day, season.end))


def season_report(*, season: Season, as_of: dt.date | None = None) -> dict[str, Any]:
    as_of = report_as_of(season=season, as_of=as_of)
    rules = season_rules(season)
    standings = season_standings(season=season, through=as_of)
    member_count = standings.member_count

    events = []
    for event in Event.objects.filter(season=season, status=Event.Status.FINAL, date__lte=as_of).order_by(
        "number"
    ):
        placings = event_placings(event=event)
        try:
            payouts = [
                {
                    "place": p.place,
                    "member": p.member_key,
                    "paid_to": p.paid_to,
                    "amount": money_str(p.amount),
                }
                for p in finance_selectors.event_payout_lines(event=event)
            ]
        except PayoutTableMissing as exc:
            payouts = [{"error": str(exc)}]
        events.append(
            {
                "number": event.number,
                "date": event.date.isoformat(),
                "member_count": len(
                    members_selectors.roster_for_event(season=season, event_number=event.number)
                ),
                "points": {
                    p.member_key: placing_points(points_table=rules.points_table, place=p.place)
                    for p in placings
                },
                "payouts": payouts,
            }
        )

    dues = []
    for account in finance_selectors.season_dues_accounts(season=season):
        status = account.status(on=as_of)
        dues.append(
            {
                "member": account.holder.person.key,
                "charged": money_str(status.charged),
                "paid": money_str(status.paid),
                "late_fees": money_str(status.late_fees),
                "balance": money_str(status.balance),
                "good_standing": finance_selectors.good_standing(membership=account.holder, on=as_of),
            }
        )
    dues.sort(key=lambda row: row["member"])

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

    distributions = []
    for result in (
        WsopResult.objects.filter(season=season).select_related("representative__person").order_by("pk")
    ):
        split = wsop_result_split(result=result)
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
        "wsop": wsop,
        "wsop_distributions": distributions,
    }
