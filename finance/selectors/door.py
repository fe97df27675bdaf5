"""The door list of an event night: who must pay to play, and how much."""

from dataclasses import dataclass
from decimal import Decimal

from events.models import Event
from events.selectors import season_events
from finance.selectors.dues import season_dues_accounts
from finance.services.forecast import to_play_at
from members.models import Membership
from members.services.seat_terms import seat_held_at


@dataclass(frozen=True)
class DoorRow:
    """A member who must pay to play at an event, and how much (``forecast.to_play_at``, the door amount)."""

    membership: Membership
    amount: Decimal
    # Under a suspension on the event's day (SPEC §2): paying does not put them in good standing tonight.
    suspended: bool = False


def event_door_list(*, event: Event) -> list[DoorRow]:
    """Every seat's holder at ``event`` who must pay to play there (payments dated by the event's day count),
    by name. The same amount as the attendance page's door amount (``amount_owed``), for the whole season in a
    fixed number of queries."""
    season = event.season
    events = season_events(season=season)
    rows = []
    for account in season_dues_accounts(season=season, events=events):
        holder = account.holder
        if not seat_held_at(seat=holder, event_number=event.number) or account.departed(on=event.date):
            continue
        amount = to_play_at(
            charges=account.charges, payments=account.payments, on=event.date, event_date=event.date
        )
        if amount > 0:
            suspended = account.suspended(membership_id=holder.pk, on=event.date)
            rows.append(DoorRow(membership=holder, amount=amount, suspended=suspended))
    return rows
