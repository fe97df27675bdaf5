"""A season written back as a season file (``ncpc-season/1``): the portable backup that
`import_season` reads (SPEC §13)."""

from typing import Any

from events.models import Attendance, Event, Season
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.rules_edit import SETTINGS_FIELDS
from finance.models import Payment, WsopResult
from members.models import Membership
from ncpc.club.services.season_file import FORMAT, rule_kind
from ncpc.core.money import money_str
from standings.models import TieBreak, WsopDecline


def season_file_export(*, season: Season) -> dict[str, Any]:
    memberships = list(
        Membership.objects.filter(season=season).select_related("person", "sponsor").order_by("pk")
    )
    events = list(Event.objects.filter(season=season).select_related("venue").order_by("number"))
    venues = {e.venue.name: e.venue.address for e in events if e.venue}
    results = _results_export(season=season)
    tie_breaks = _tie_breaks_export(season=season)
    return {
        "format": FORMAT,
        "season": {"name": season.name, "start": season.start.isoformat()},
        "rules": season_rules_export(season=season),
        "venues": [{"name": name, "address": address} for name, address in sorted(venues.items())],
        "members": [_member_export(m) for m in memberships],
        "events": [
            {
                "number": e.number,
                "date": e.date.isoformat(),
                "venue": e.venue.name if e.venue else None,
                "results": results.get(e.pk, []),
            }
            for e in events
            if e.status == Event.Status.FINAL
        ],
        "payments": _payments_export(season=season),
        "tie_breaks": tie_breaks,
        "wsop_declined": [
            d.membership.person.key
            for d in WsopDecline.objects.filter(season=season)
            .select_related("membership__person")
            .order_by("pk")
        ],
        "wsop_results": [
            {"member": w.representative.person.key, "gross": money_str(w.gross), "tips": money_str(w.tips)}
            for w in WsopResult.objects.filter(season=season)
            .select_related("representative__person")
            .order_by("pk")
        ],
    }


def _member_export(m: Membership) -> dict[str, Any]:
    return {
        "key": m.person.key,
        "first_name": m.person.first_name,
        "last_name": m.person.last_name,
        "date_of_birth": m.person.date_of_birth.isoformat() if m.person.date_of_birth else None,
        "email": m.person.email,
        "sponsor": m.sponsor.key if m.sponsor else None,
        "first_event": m.first_event,
        "left_after_event": m.left_after_event,
    }


def _results_export(*, season: Season) -> dict[int, list[dict]]:
    """Each event's results (by event id): a place (and a removal for abuse) or a status, and a substitute."""
    results: dict[int, list[dict]] = {}
    attendances = (
        Attendance.objects.filter(event__season=season)
        .select_related("membership__person", "elimination")
        .order_by("event__number", "place", "membership__person__key")
    )
    for a in attendances:
        row: dict[str, Any] = {"member": a.membership.person.key}
        if a.place is not None:
            row["place"] = a.place
            elimination = getattr(a, "elimination", None)
            if elimination is not None and elimination.removed_for_abuse:
                row["removed_for_abuse"] = True
        else:
            status = a.status if a.status in ("absent", "chips_removed", "not_in_good_standing") else "absent"
            row["status"] = status
        if a.substitute_name:
            row["substitute"] = a.substitute_name
            row["prize_to"] = a.prize_to
        results.setdefault(a.event_id, []).append(row)
    return results


def _tie_breaks_export(*, season: Season) -> list[dict[str, Any]]:
    tie_breaks = []
    for tb in (
        TieBreak.objects.filter(season=season).prefetch_related("entries__membership__person").order_by("pk")
    ):
        order = [e.membership.person.key for e in tb.entries.order_by("position")]
        tie_breaks.append({"members": sorted(order), "order": order, "how": tb.get_how_display()})
    return tie_breaks


def _payments_export(*, season: Season) -> list[dict[str, Any]]:
    """The season's payments that stand (a reversed one is left out)."""
    return [
        {
            "member": p.membership.person.key,
            "date": p.date.isoformat(),
            "amount": money_str(p.amount),
            "method": p.method,
            "reference": p.reference,
        }
        for p in Payment.objects.filter(membership__season=season, transaction__reversed_by__isnull=True)
        .select_related("membership__person")
        .order_by("date", "pk")
    ]


def season_rules_export(*, season: Season) -> dict[str, Any]:
    """The season's ``rules`` object (SPEC §16.9): every scalar rule and table, and what the rules page edits
    besides them, as ``season_file_read`` reads them back."""
    rules = season_rules(season)
    out: dict[str, Any] = {}
    for name in SeasonRules.SCALAR_FIELDS:
        out[name] = _rule_value(getattr(rules, name), kind=rule_kind(name))
    for name in SETTINGS_FIELDS:
        out[name] = _rule_value(getattr(season, name), kind=rule_kind(name))
    out["dues_schedule"] = [
        {"event_number": number, "amount": money_str(amount)} for number, amount in rules.dues_schedule
    ]
    out["payout_table"] = [
        {"member_count": row.member_count, "amounts": [money_str(a) for a in row.amounts]}
        for row in rules.payout_table
    ]
    out["wsop_table"] = [
        {"min_members": row.min_members, "max_members": row.max_members, "prizes": row.prizes}
        for row in rules.wsop_table
    ]
    out["blind_structure"] = [level._asdict() for level in rules.blind_structure]
    return out


def _rule_value(value: Any, *, kind: str) -> Any:
    if kind == "schedule":
        return [[month, nth] for month, nth in value]
    if kind == "points_table":
        return list(value)
    if kind == "DecimalField":
        return money_str(value)
    if kind == "TimeField":
        return value.isoformat(timespec="minutes" if not value.second else "seconds")
    return value
