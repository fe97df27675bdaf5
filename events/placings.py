"""What other apps read of an event's results: plain values, no ORM objects."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Placing:
    """One player with a place at an event (SPEC §5): chips-removed and absent members have none."""

    place: int
    membership_id: int
    member_key: str
    substitute_name: str = ""  # non-empty when a substitute played the member's seat (§5.3)
    prize_to: str = "member"  # "member" or "substitute" (§5.3.4)
    removed_for_abuse: bool = False
