from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"

    def ready(self) -> None:
        from events.models import Event, Venue
        from events.services.rules_stamp import rules_stamp_watch
        from ncpc.core.cache import roster_watch

        rules_stamp_watch()
        # The seasons' events are kept under the roster version (events.selectors.season_events).
        roster_watch((Event, Venue))
