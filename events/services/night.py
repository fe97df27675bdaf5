"""Tournament night on the server (SPEC §4, bylaws §5.2, §5.8, §6.1, §6.3–6.7): what the night's commands share.

The night is split by concern:

- ``events.services.night_clock``: the clock's commands and what the clock pages show;
- ``events.services.night_seating``: the seat draw, the button, balancing moves, the final table;
- ``events.services.late_arrival``: the first and second hour, call-ins and chips that come off;
- ``events.services.console``: the undo of a bust and the console's read model (the tables as shown);
- ``events.services.night_actions``: the one registry of the night's actions, used by the console, the offline
  replay and the plain forms.

The rules themselves are the pure calculators in ``events.services.clock`` and ``events.services.seating``.
Commands are ``@transaction.atomic``, lock the night row (``night_lock``), check the version the officer's page
saw (``version_check``), refuse once the results are final (``not_final``) and write an audit row.
"""

from dataclasses import dataclass
from typing import Any

from events import selectors
from events.models import Attendance, Event, Night
from events.rules import BlindLevelData
from events.services.clock import ClockState
from ncpc.core.errors import ConcurrentChange, NcpcError

# Seats that hold chips: players still in, and absent players (posted and folded) until their chips come off.
SEATED_STATUSES = (Attendance.Status.EXPECTED, Attendance.Status.CALLED_IN, Attendance.Status.ABSENT)


@dataclass(frozen=True)
class NightRead:
    """What the console's whole state reads once and hands to the parts that show it (the clock, the tables,
    the busts): the night's row, every seat of the event (``selectors.event_attendances``: with members and
    eliminations) and the members on its roster that night."""

    night: Night | None
    rows: list[Attendance]
    roster: list[Any]


def structure_of(event: Event) -> tuple[BlindLevelData, ...]:
    """The season's blind structure; refused when the rules have none yet."""
    structure = selectors.season_rules(event.season).blind_structure
    if not structure:
        raise NcpcError(
            f"The {event.season} rules have no blind structure: enter it on the rules page first."
        )
    return structure


def night_lock(*, event: Event) -> Night:
    """The night's row, created when missing, locked for the rest of the transaction."""
    Night.objects.get_or_create(event_id=event.pk)
    return Night.objects.select_for_update().select_related("event__season").get(event_id=event.pk)


def version_check(*, seen: int, current: int, what: str) -> None:
    if seen != current:
        raise ConcurrentChange(
            f"The {what} changed meanwhile (another officer or screen did something). Reload and try again."
        )


def not_final(event: Event) -> None:
    if event.status == Event.Status.FINAL:
        raise NcpcError("The results of this event are final: the night is over.")


def night_of(*, event: Event) -> Night | None:
    return Night.objects.filter(event=event).first()


def clock_state_of(night: Night | None) -> ClockState:
    if night is None:
        return ClockState()
    return ClockState(
        started_at=night.started_at,
        paused_at=night.paused_at,
        paused_seconds=night.paused_seconds,
        shift_seconds=night.shift_seconds,
    )


def seat_key(attendance_id: int) -> str:
    """A player as the seating calculators know them."""
    return str(attendance_id)
