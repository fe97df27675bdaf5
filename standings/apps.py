from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"

    def ready(self):
        from standings import profile, receivers  # noqa: F401  (registers the profile panel and signal receivers)
