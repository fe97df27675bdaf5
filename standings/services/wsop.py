"""Who goes to the WSOP (SPEC §6, bylaws §8.1, §8.4) and the race for it. Pure calculators.

Status strings are those of the season report (SPEC §13).
"""

from collections.abc import Collection, Mapping, Sequence
from itertools import groupby

from standings.services.ranking import Ranked

QUALIFIED = "qualified"
REPLACEMENT = "replacement"
DECLINED = "declined"
UNDECIDED = "undecided"
INELIGIBLE = "ineligible"
NONE = "none"

CLINCHED = "clinched"
OPEN = "open"
OUT_OF_REACH = "out of reach"


def _select(ranked: Sequence[Ranked], prizes: int) -> tuple[set[int], set[int]]:
    """Walk the rank groups: a group that fits in the spots left qualifies; a group larger than the spots
    left (a tie across the cut-off, no tie-break) makes those spots undecided. Returns (qualified, undecided)."""
    qualified: set[int] = set()
    undecided: set[int] = set()
    left = prizes
    for _rank, members in groupby(ranked, key=lambda r: r.rank):
        if left <= 0:
            break
        group = [r.membership_id for r in members]
        if len(group) <= left:
            qualified.update(group)
            left -= len(group)
        else:
            undecided.update(group)
            left = 0
    return qualified, undecided


def wsop_statuses(
    *,
    ranked: Sequence[Ranked],
    eligible: Collection[int],
    prizes: int,
    declined: Collection[int] = (),
) -> dict[int, str]:
    """The WSOP status of every ranked member.

    Qualifiers are the top-ranked eligible members, one per prize. A qualifier who declines (§8.4) is
    replaced by the next non-qualifying eligible finisher (SPEC §15.3): declines are applied in rank order, so
    the selection is made again without those who declined; whoever it adds is a ``replacement``. Members who
    were tied across the original cut-off without a tie-break stay ``undecided`` even when the declines make
    room for them: which of them replaces whom is not decided until a tie-break is recorded. Ineligible
    members never take a spot.
    """
    in_race = [r for r in ranked if r.membership_id in eligible]
    first_q, first_u = _select(in_race, prizes)
    final_q, final_u = _select([r for r in in_race if r.membership_id not in declined], prizes)
    statuses: dict[int, str] = {}
    for r in ranked:
        mid = r.membership_id
        if mid not in eligible:
            statuses[mid] = INELIGIBLE
        elif mid in declined:
            statuses[mid] = DECLINED
        elif mid in final_q and mid in first_q:
            statuses[mid] = QUALIFIED
        elif mid in final_q and mid not in first_u:
            statuses[mid] = REPLACEMENT
        elif mid in final_q or mid in final_u:
            statuses[mid] = UNDECIDED
        else:
            statuses[mid] = NONE
    return statuses


def wsop_race(
    *,
    points: Mapping[int, int],
    eligible: Collection[int],
    prizes: int,
    events_left: int,
    max_points_per_event: int,
) -> dict[int, str]:
    """Clinched / open / out of reach for each eligible member (SPEC §6), with r events left, s prizes and
    p the member's points:

    clinched when fewer than s other eligible members have points + max·r ≥ p;
    out of reach when at least s other eligible members have points > p + max·r; otherwise open.
    (max is the best place's points, 10 in the bylaws.) Members not in ``eligible`` get no race status.
    """
    reach = max_points_per_event * events_left
    contenders = [mid for mid in points if mid in eligible]
    race: dict[int, str] = {}
    for mid in contenders:
        p = points[mid]
        others = [points[o] for o in contenders if o != mid]
        if len([q for q in others if q + reach >= p]) < prizes:
            race[mid] = CLINCHED
        elif len([q for q in others if q > p + reach]) >= prizes:
            race[mid] = OUT_OF_REACH
        else:
            race[mid] = OPEN
    return race
