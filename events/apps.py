from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"

    def ready(self) -> None:
        from events.services.rules_stamp import rules_stamp_watch

        rules_stamp_watch()
