"""Removing a season's standings records, for `import_season --replace` only."""

from events.models import Season
from standings.models import ResultsNotice, TieBreak, WsopDecline


def standings_season_purge(*, season: Season) -> None:
    for tie_break in TieBreak.objects.filter(season=season):
        tie_break.entries.all().delete()
        tie_break.delete()
    WsopDecline.objects.filter(season=season).delete()
    ResultsNotice.objects.filter(event__season=season).delete()
