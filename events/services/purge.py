"""Removing a season with its events and results, for `import_season --replace` only."""

from events.models import Attendance, Elimination, Season


def events_results_purge(*, season: Season) -> None:
    """First step: the results, which point at the season's memberships."""
    Elimination.objects.filter(event__season=season).delete()
    Attendance.objects.filter(event__season=season).delete()


def events_season_delete(*, season: Season) -> None:
    """Last step, once nothing else points at the season: its events and the season with its rule tables."""
    season.events.all().delete()
    season.delete()
