"""Event payouts (SPEC §8, bylaws §6.2): the calculator, and the command that pays an event out in cash."""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction

from events.placings import Placing
from events.rules import SeasonRules
from ncpc.errors import NcpcError, RulesError


class PayoutTableMissing(RulesError):
    pass


class NothingToPay(NcpcError):
    pass


@dataclass(frozen=True)
class PayoutLine:
    place: int
    member_key: str
    paid_to: str  # "member" or "substitute"
    amount: Decimal
    substitute_name: str = ""
    membership_id: int | None = None


def payout_amounts(*, rules: SeasonRules, member_count: int) -> tuple[Decimal, ...]:
    """The prizes for places 1, 2, … for this many members, or a clear error when the table has no row."""
    for row in rules.payout_table:
        if row.member_count == member_count:
            return row.amounts
    raise PayoutTableMissing(
        f"The season's payout table has no row for {member_count} members; the officers must add one "
        "on the season rules page."
    )


def payout_lines(*, rules: SeasonRules, member_count: int, placings: Sequence[Placing]) -> list[PayoutLine]:
    """Who gets which prize, best place first. Only placed players are paid (chips-removed players have no
    place); a substitute's prize goes where the member chose (§5.3)."""
    amounts = payout_amounts(rules=rules, member_count=member_count)
    by_place = {p.place: p for p in placings}
    lines = []
    for place, amount in enumerate(amounts, start=1):
        placing = by_place.get(place)
        if placing is None:
            continue
        to_substitute = bool(placing.substitute_name) and placing.prize_to == "substitute"
        lines.append(
            PayoutLine(
                place=place,
                member_key=placing.member_key,
                paid_to="substitute" if to_substitute else "member",
                amount=amount,
                substitute_name=placing.substitute_name,
                membership_id=placing.membership_id,
            )
        )
    return lines


def event_payout_key(*, event) -> str:
    return f"payout:event:{event.pk}:"


@transaction.atomic
def event_payout_post(*, event, actor):
    """Post the night's cash prizes (cash box → event payouts). Idempotent: an event is paid out once
    (unless that posting was reversed); a second call returns the posting that exists."""
    from events.models import Event
    from finance.models import Account, Transaction
    from finance.selectors import event_payout_lines
    from finance.services.ledger import EntryLine, next_key, posted_under_key, transaction_post

    event = Event.objects.select_for_update().select_related("season").get(pk=event.pk)
    prefix = event_payout_key(event=event)
    existing = posted_under_key(prefix=prefix)
    if existing is not None:
        return existing
    lines = event_payout_lines(event=event)
    if not lines:
        raise NothingToPay(f"Event {event.number} has no results yet, so there is nothing to pay out.")
    entries = []
    for line in lines:
        who = (
            f"{line.substitute_name} (substitute for {line.member_key})"
            if line.paid_to == "substitute"
            else line.member_key
        )
        entries.append(
            EntryLine(
                Account.PAYOUTS,
                line.amount,
                membership_id=line.membership_id,
                memo=f"Place {line.place}: {who}",
            )
        )
    total = sum(line.amount for line in lines)
    entries.append(EntryLine(Account.CASH, -total, memo=f"Cash prizes, event {event.number}"))
    return transaction_post(
        date=event.date,
        kind=Transaction.Kind.PAYOUT,
        memo=f"Event {event.number} payouts ({event.season})",
        lines=entries,
        actor=actor,
        key=next_key(prefix=prefix),
    )
