from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"

    def ready(self) -> None:
        from finance import hooks as finance_hooks
        from standings import profile, receivers, selectors  # noqa: F401  (registers the profile panel and signal receivers)

        finance_hooks.wsop_statuses.connect(selectors.wsop_statuses_of)
