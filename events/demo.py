"""Demo seasons and venues for `manage.py load_demo`."""

from events.models import Season, Venue
from events.services.seasons import season_bounds, season_create
from ncpc.clock import club_today

DEMO_VENUES = (
    ("Hammond house", "4410 Galbraith Rd, Cincinnati, OH"),
    ("Okafor house", "2215 Ridge Ave, Cincinnati, OH"),
    ("Brennan basement", "780 Compton Rd, Cincinnati, OH"),
)


def demo_season_load() -> Season:
    """The season containing today (created with the bylaws' rules if missing) and the club's venues."""
    today = club_today()
    start_year = today.year if today.month >= 8 else today.year - 1
    start, _end = season_bounds(start_year)
    season = Season.objects.filter(start=start).first() or season_create(start_year=start_year)
    for name, address in DEMO_VENUES:
        Venue.objects.get_or_create(name=name, defaults={"address": address})
    return season


def demo_context_season(context: dict) -> None:
    context["season"] = demo_season_load()


DEMO_STEPS = [(10, demo_context_season)]
