"""Event payouts (SPEC §8, bylaws §6.2). The calculator is filled in by the money issue."""

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class PayoutLine:
    place: int
    member_key: str
    paid_to: str  # "member" or "substitute"
    amount: Decimal
    substitute_name: str = ""
