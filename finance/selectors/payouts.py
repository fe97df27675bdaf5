"""An event's cash prizes, and whom they pay."""

from events import selectors as events_selectors
from events.models import Event, Season
from events.placings import Placing
from events.rules import SeasonRules
from events.selectors import season_rules
from finance.services.payouts import PayoutLine, payout_lines
from members import selectors as members_selectors
from members.selectors import season_memberships


def event_payout_lines(
    *, event: Event, placings: list[Placing] | None = None, rules: SeasonRules | None = None
) -> list[PayoutLine]:
    """The cash prizes of an event, as ``finance.services.payouts.PayoutLine`` values, best place first.

    Empty until the event has placings; raises ``PayoutTableMissing`` when the season's payout table has no
    row for the number of members on the event's date. ``placings`` and the season's ``rules``: when the
    caller has them already.
    """
    if placings is None:
        placings = events_selectors.event_placings(event=event)
    if not placings:
        return []
    count = len(members_selectors.roster_for_event(season=event.season, event_number=event.number))
    return payout_lines(rules=rules or season_rules(event.season), member_count=count, placings=placings)


def payout_member_names(*, season: Season) -> dict[int, str]:
    """Membership id → the member's full name, for naming who a payout line pays (never a login name)."""
    return {m.pk: m.person.full_name for m in season_memberships(season=season)}


def payout_paid_to(line: PayoutLine, *, names: dict[int, str]) -> str:
    """Who takes the prize, as a report prints it: the member, or the substitute who played the seat."""
    if line.paid_to == "substitute":
        return f"{line.substitute_name} (substitute)"
    return names.get(line.membership_id or 0, line.member_key)
