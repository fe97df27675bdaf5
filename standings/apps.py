from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"

    def ready(self):
        from standings import home, receivers  # noqa: F401  (registers the home panel and signal receivers)
