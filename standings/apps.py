from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"

    def ready(self):
        from standings import home, profile, receivers  # noqa: F401  (registers panels and signal receivers)
