"""What events asks of the apps above it (members, finance), answered in their ``AppConfig.ready()``.

Events sits below members and finance (see ``ncpc.core.hooks``): a seat at an event belongs to a membership, and
whether it may play depends on dues and the rules signature, which those apps decide. Each hook is typed with
the signature of the function that answers it (named after the ``Protocol``'s docstring).
"""

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

from events.models import Event, Season
from events.placings import Placing
from events.rules import SeasonRules
from ncpc.core.hooks import Hook

if TYPE_CHECKING:  # types only: the running program never imports upward (see ncpc.core.hooks)
    from finance.services.payouts import PayoutLine
    from members.models import Membership, Person


# members


class EventRoster(Protocol):
    """members.selectors.roster_for_event: the memberships on the roster of the season's event ``event_number``."""

    def __call__(self, *, season: Season, event_number: int) -> "list[Membership]": ...


class RulesSigned(Protocol):
    """members.selectors.rules_signed: has the member signed the season's rules document (§2.4)?"""

    def __call__(self, *, membership: "Membership") -> bool: ...


class PeopleNamed(Protocol):
    """members.selectors.people_named: the people known by this name (a substitute's checks, §5.3)."""

    def __call__(self, *, name: str) -> "list[Person]": ...


class PersonBanned(Protocol):
    """members.selectors.person_banned: is the person banned from the club (§5.3.2)?"""

    def __call__(self, *, person: "Person") -> bool: ...


class SeatsHeld(Protocol):
    """members.selectors.current_member_count: how many seats of the season are held."""

    def __call__(self, *, season: Season) -> int: ...


class MonthVotes(Protocol):
    """members.selectors.two_events_votes: passed majority votes for two events in one month (§4.4.2), as
    (vote id, label)."""

    def __call__(self, *, season: Season) -> list[tuple[int, str]]: ...


event_roster: Hook[EventRoster] = Hook("event_roster(season, event_number)", "members")
rules_signed: Hook[RulesSigned] = Hook("rules_signed(membership)", "members")
people_named: Hook[PeopleNamed] = Hook("people_named(name)", "members")
person_banned: Hook[PersonBanned] = Hook("person_banned(person)", "members")
seats_held: Hook[SeatsHeld] = Hook("seats_held(season)", "members")
month_votes: Hook[MonthVotes] = Hook("month_votes(season)", "members")


# finance


class GoodStanding(Protocol):
    """finance.selectors.dues.good_standing: is the member in good standing on this day (§2.17)?"""

    def __call__(self, *, membership: "Membership", on: dt.date) -> bool: ...


class AmountOwed(Protocol):
    """finance.selectors.dues.amount_owed: what the member owes on this day."""

    def __call__(self, *, membership: "Membership", on: dt.date) -> Decimal: ...


class EventPayoutLines(Protocol):
    """finance.selectors.payouts.event_payout_lines: the event's prizes, one line a paid place (placings and rules
    already read may be given)."""

    def __call__(
        self, *, event: Event, placings: list[Placing] | None = None, rules: SeasonRules | None = None
    ) -> "list[PayoutLine]": ...


class PayoutAmounts(Protocol):
    """finance.services.payouts.payout_amounts: the prizes for places 1, 2, … for this many members; raises an
    NcpcError when the season's payout table has no row for the count."""

    def __call__(self, *, rules: SeasonRules, member_count: int) -> tuple[Decimal, ...]: ...


class ClosedMonthRefusal(Protocol):
    """finance.services.ledger.closed_month_refusal: why nothing can take effect on this day (its month, or a
    later one, is closed; SPEC §17.2), naming the month and the way forward, or None."""

    def __call__(self, *, day: dt.date) -> str | None: ...


good_standing: Hook[GoodStanding] = Hook("good_standing(membership, on)", "finance")
amount_owed: Hook[AmountOwed] = Hook("amount_owed(membership, on)", "finance")
event_payout_lines: Hook[EventPayoutLines] = Hook("event_payout_lines(event)", "finance")
payout_amounts: Hook[PayoutAmounts] = Hook("payout_amounts(rules, member_count)", "finance")
closed_month_refusal: Hook[ClosedMonthRefusal] = Hook("closed_month_refusal(day)", "finance")
