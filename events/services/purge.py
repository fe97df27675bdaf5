"""Removing a season with its events and results, for `import_season --replace` only.

Results, nights and answers are protected from a cascade (SPEC §16.11: deleting an event never takes them with
it), so the restore deletes them itself, children before parents."""

from events.models import (
    Attendance,
    Elimination,
    Event,
    Night,
    NightChange,
    NightMove,
    NightTable,
    Rsvp,
    RsvpReminder,
    Season,
)


def events_results_purge(*, season: Season) -> None:
    """First step: the nights, answers and results, which point at the season's memberships."""
    events = Event.objects.filter(season=season)
    NightMove.objects.filter(event__in=events).delete()
    NightTable.objects.filter(event__in=events).delete()  # with their seats
    NightChange.objects.filter(event__in=events).delete()
    Night.objects.filter(event__in=events).delete()
    Elimination.objects.filter(event__in=events).delete()
    RsvpReminder.objects.filter(event__in=events).delete()
    Rsvp.objects.filter(event__in=events).delete()
    Attendance.objects.filter(event__in=events).delete()


def events_season_delete(*, season: Season) -> None:
    """Last step, once nothing else points at the season: its events and the season with its rule tables."""
    season.events.all().delete()
    season.delete()
