"""A member's career across seasons: events, wins, top-three finishes, average place, cashes. Pure."""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal


@dataclass(frozen=True)
class CareerStats:
    events: int
    wins: int
    top_three: int
    average_place: Decimal | None  # one decimal; None before the first event played
    cashes: int


def career_stats(*, places: Sequence[int], cashes: int) -> CareerStats:
    """``places``: every place the member (or their substitute) had; ``cashes``: events where a prize was paid
    for the member's place (to them or to their substitute)."""
    average = None
    if places:
        average = (Decimal(sum(places)) / len(places)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return CareerStats(
        events=len(places),
        wins=sum(1 for p in places if p == 1),
        top_three=sum(1 for p in places if p <= 3),
        average_place=average,
        cashes=cashes,
    )
