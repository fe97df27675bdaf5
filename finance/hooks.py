"""What finance asks of the apps above it (standings), answered in their ``AppConfig.ready()`` (see ncpc.core.hooks)."""

from typing import Protocol

from events.models import Season
from ncpc.core.hooks import Hook


class WsopStatuses(Protocol):
    """standings.selectors.wsop_statuses_of: membership id → WSOP status of the season's standings
    ("qualified", "replacement", "declined", …)."""

    def __call__(self, *, season: Season) -> dict[int, str]: ...


wsop_statuses: Hook[WsopStatuses] = Hook("wsop_statuses(season)", "standings")
