"""Who holds a seat at which event (SPEC §2, §13). Pure: plain values in, a yes or no out.

A membership (``members.models.Membership``) and a season file's member row (``ncpc.club.services.season_file``)
both say when their seat is held by two numbers: the first event and the event after which the member left.
"""

import datetime as dt
from collections.abc import Mapping
from typing import Protocol


class SeatTerms(Protocol):
    @property
    def first_event(self) -> int: ...

    @property
    def left_after_event(self) -> int | None: ...


def seat_held_at(*, seat: SeatTerms, event_number: int) -> bool:
    """Does the member hold the seat at event ``event_number``: joined by then (their first event is that one or
    an earlier one) and not left before it (leaving after that event still holds it there)? The one rule the
    roster, the standings, the door list and the season file use."""
    left = seat.left_after_event
    return seat.first_event <= event_number and (left is None or left >= event_number)


def seat_left_on(
    *,
    left_on: dt.date | None,
    left_after_event: int | None,
    event_dates: Mapping[int, dt.date],
    season_start: dt.date,
) -> dt.date | None:
    """The day a member left the seat (a removal, a withdrawal, a sale or cession: SPEC §16.2), None while they
    hold it. The commands record that day (``Membership.left_on``); a seat ended without one (history, a season
    file) ends the day after the last event it was held at, or on the season's first day if it never was."""
    if left_after_event is None:
        return None
    if left_on is not None:
        return left_on
    last = event_dates.get(left_after_event)
    return last + dt.timedelta(days=1) if last is not None else season_start
