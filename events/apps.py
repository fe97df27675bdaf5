from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"

    def ready(self) -> None:
        from events.models import Event, Season, Venue
        from events.services.rules_stamp import rules_stamp_watch
        from ncpc.core.cache import roster_watch

        rules_stamp_watch()
        # The seasons and their events are kept under the roster version (events.selectors.seasons_all,
        # season_events).
        roster_watch((Season, Event, Venue))
