"""Ranks in the season standings (SPEC §6, bylaws §10.5–10.6). Pure calculator.

Equal points share a rank ("1, 2, 2, 4") until a recorded tie-break orders that group.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True)
class Ranked:
    membership_id: int
    points: int
    rank: int
    shared: bool  # True when another member holds the same rank (an unbroken tie)


@dataclass(frozen=True)
class TieBreakOrder:
    """A recorded tie-break (§10.6, SPEC §15.4): the points total the members were tied on, and their order
    (membership ids, best first). It settles that tie only: the same members tied again at another total need
    a new tie-break."""

    points: int
    order: tuple[int, ...]


def _tie_break_order(group: set[int], points: int, tie_breaks: Sequence[TieBreakOrder]) -> list[int] | None:
    """The newest tie-break recorded at this points total that names every member of the group orders it
    (members it names beyond the group are ignored: they no longer have the same points). A tie-break naming
    only part of the group leaves the group tied: it was decided among other players. A tie-break recorded at
    another total does not apply (SPEC §15.4)."""
    for tie_break in reversed(tie_breaks):
        if tie_break.points == points and group <= set(tie_break.order):
            return [mid for mid in tie_break.order if mid in group]
    return None


def standings_ranks(
    *,
    totals: Mapping[int, int],
    tie_breaks: Sequence[TieBreakOrder] = (),
    sort_keys: Mapping[int, str] | None = None,
) -> list[Ranked]:
    """Rank members by points, highest first.

    ``totals``: membership id → season points. ``tie_breaks``: the recorded tie-breaks, oldest first. ``sort_keys``: how to list members who share a rank (e.g. their key); by id otherwise.
    """
    keys = sort_keys or {}
    ordered = sorted(totals, key=lambda mid: (-totals[mid], keys.get(mid, ""), mid))
    out: list[Ranked] = []
    position = 1
    for points, members in groupby(ordered, key=lambda mid: totals[mid]):
        group = list(members)
        if len(group) == 1:
            out.append(Ranked(group[0], points, position, False))
        else:
            order = _tie_break_order(set(group), points, tie_breaks)
            if order is None:
                out.extend(Ranked(mid, points, position, True) for mid in group)
            else:
                out.extend(Ranked(mid, points, position + i, False) for i, mid in enumerate(order))
        position += len(group)
    return out
