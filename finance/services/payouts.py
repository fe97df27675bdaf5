"""Event payouts (SPEC §8, bylaws §6.2): the pure calculator. Paying an event out is ``finance.services.event_payouts``."""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from events.placings import Placing
from events.rules import SeasonRules
from ncpc.core.errors import NcpcError, RulesError


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
