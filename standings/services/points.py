"""Season totals (SPEC §5, bylaws §10). Pure calculators: plain values in and out. Points per place are
``events.services.places.points_for`` (one rule: the event page uses it too)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from events.services.places import points_for


@dataclass(frozen=True)
class EventPlaces:
    """The places of one event whose results count: membership id → place (a substitute's place is the member's)."""

    number: int
    places: dict[int, int]


@dataclass
class MemberTotal:
    membership_id: int
    points: int = 0
    events_played: int = 0
    # event number → points scored there (only events where the member had a place)
    per_event: dict[int, int] = field(default_factory=dict)
    places: dict[int, int] = field(default_factory=dict)

    @property
    def points_per_event(self) -> float | None:
        """Average points per event played (None before the member has played)."""
        if not self.events_played:
            return None
        return self.points / self.events_played


def season_totals(
    *, points_table: Sequence[int], events: Iterable[EventPlaces], membership_ids: Iterable[int] = ()
) -> dict[int, MemberTotal]:
    """Season total = sum over events (§10.4); a member with no place in an event scores 0 there.

    ``membership_ids`` lists the season's members so that those without any place appear with 0 points.
    """
    totals = {mid: MemberTotal(membership_id=mid) for mid in membership_ids}
    for event in events:
        for mid, place in event.places.items():
            total = totals.setdefault(mid, MemberTotal(membership_id=mid))
            points = points_for(place=place, points_table=points_table)
            total.points += points
            total.events_played += 1
            total.per_event[event.number] = points
            total.places[event.number] = place
    return totals


def cumulative_points(*, per_event: dict[int, int], event_numbers: Sequence[int]) -> list[int]:
    """Running total after each of ``event_numbers`` (for the season chart)."""
    running, out = 0, []
    for number in event_numbers:
        running += per_event.get(number, 0)
        out.append(running)
    return out
