"""Places 1..N from eliminations in order (SPEC §5, bylaws §6.5, §10.3). Pure: values in, values out.

Eliminations come as *hands*: every hand that put at least one player out, numbered as they were recorded.
The night's order is the order of the taps (SPEC §17.8): hands are placed by the time they were tapped, ties by
their number, so a bust a phone sent late takes the place of the moment it was tapped (a hand without a time,
in a calculation, is placed by its number alone). Players out on the same hand are ordered by their chip count at
the start of that hand (higher count = better place); equal counts by a recorded draw (1 = better place). Places
are never shared.
"""

import datetime as dt
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from events.errors import ResultsError

# Who a player is: an attendance id at an event, any value in a calculation.
Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True)
class Bust(Generic[Player]):
    player: Player
    hand: int  # hands in play order; players out on the same hand share the number
    start_chips: int | None = None  # needed when several players go out on the same hand
    draw: int | None = None  # among equal start_chips: 1 = better place
    removed_for_abuse: bool = False
    tapped_at: dt.datetime | None = None  # when the bust was tapped: the night's order (SPEC §17.8)


# Placed before every timed hand: a calculation without times orders the hands by their numbers.
UNTIMED = dt.datetime.min.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Place(Generic[Player]):
    player: Player
    place: int
    removed_for_abuse: bool = False


def hand_order(*, busts: Sequence[Bust[Player]]) -> list[Bust[Player]]:
    """The players of one hand, best place first (higher start-of-hand chips, then the draw)."""
    if len(busts) == 1:
        return list(busts)
    if any(b.start_chips is None for b in busts):
        raise ResultsError(
            "Players out on the same hand need their chip counts at the start of that hand (§6.5)."
        )
    counts: dict[int, list[Bust[Player]]] = {}
    for b in busts:
        counts.setdefault(b.start_chips or 0, []).append(b)
    for tied in counts.values():
        draws = [b.draw for b in tied]
        if len(tied) > 1 and (None in draws or len(set(draws)) != len(draws)):
            raise ResultsError("Players with equal chip counts on the same hand need the order of a draw.")
    return sorted(busts, key=lambda b: (-(b.start_chips or 0), b.draw or 0))


def hands_in_order(*, busts: Sequence[Bust[Player]]) -> list[list[Bust[Player]]]:
    """The busts by hand, in the night's order: the order of the taps (SPEC §17.8), ties by hand number."""
    hands: dict[int, list[Bust[Player]]] = {}
    for b in busts:
        hands.setdefault(b.hand, []).append(b)

    def tapped(hand: int) -> tuple[dt.datetime, int]:
        return min(b.tapped_at or UNTIMED for b in hands[hand]), hand

    return [hands[hand] for hand in sorted(hands, key=tapped)]


def tapped_after(*, busts: Sequence[Bust[Player]], hand: int) -> list[Player]:
    """The players out on the hands after ``hand`` in the night's order. When ``hand`` is the bust just recorded
    (one a phone sent late, SPEC §17.8) they were placed before it came, and each moves up a place for each of
    its players."""
    groups = hands_in_order(busts=busts)
    index = next((i for i, group in enumerate(groups) if group[0].hand == hand), None)
    if index is None:
        return []
    return [b.player for group in groups[index + 1 :] for b in group]


def bust_places(*, entrants: Collection[Player], busts: Sequence[Bust[Player]]) -> list[Place[Player]]:
    """Places of the players out so far, best first, in the night's order (``hands_in_order``). The last player
    left (not among them) wins."""
    entrant_set = set(entrants)
    seen: set[Player] = set()
    for b in busts:
        if b.player not in entrant_set:
            raise ResultsError(f"Unknown player {b.player!r}: not playing at this event.")
        if b.player in seen:
            raise ResultsError(f"Player {b.player!r} is entered twice.")
        seen.add(b.player)
    if busts and len(seen) >= len(entrant_set):
        raise ResultsError("Everyone cannot be out: the last player left is the winner.")
    remaining = len(entrant_set)
    places: list[Place[Player]] = []
    for players_of_hand in hands_in_order(busts=busts):
        group = hand_order(busts=players_of_hand)
        best = remaining - len(group) + 1
        places.extend(
            Place(player=b.player, place=best + i, removed_for_abuse=b.removed_for_abuse)
            for i, b in enumerate(group)
        )
        remaining -= len(group)
    return sorted(places, key=lambda p: p.place)


def places_final(*, entrants: Collection[Player], busts: Sequence[Bust[Player]]) -> list[Place[Player]]:
    """Places 1..N for everyone who played: the one player never out is 1st."""
    places = bust_places(entrants=entrants, busts=busts)
    out = {p.player for p in places}
    left = [e for e in entrants if e not in out]
    if len(left) != 1:
        raise ResultsError(
            f"{len(left)} players are still in: finish when only the winner is left."
            if left
            else "Nobody is playing at this event."
        )
    return [Place(player=left[0], place=1), *places]


def points_for(*, place: int | None, points_table: Sequence[int]) -> int:
    """Points of a place from the season's points table (SPEC §5, bylaws §10.1): the table's entry for places
    1..len, 0 below it, and 0 for no place (absent, chips removed, not in good standing: SPEC §5, §10.4). The
    one rule the event page, the standings and the season report use. A place below 1 is not a place: it is
    refused (ValueError), never scored."""
    if place is None:
        return 0
    if place < 1:
        raise ValueError(f"A place starts at 1, not {place}.")
    return points_table[place - 1] if place <= len(points_table) else 0
