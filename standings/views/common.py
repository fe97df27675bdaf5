"""What the standings pages share."""

from django.http import Http404

from events.models import Season
from events.selectors import season_named
from standings.badges import RACE_BADGES, WSOP_BADGES


def season_or_404(name: str) -> Season:
    """The season the address names (a 404 when there is none)."""
    season = season_named(name)
    if season is None:
        raise Http404("No such season.")
    return season


def rows_with_badges(rows):
    """The standings rows, each given its WSOP and race badges for the templates."""
    for row in rows:
        row.wsop_badge = WSOP_BADGES.get(row.wsop, WSOP_BADGES["none"])
        row.race_badge = RACE_BADGES.get(row.race) if row.race else None
    return rows
