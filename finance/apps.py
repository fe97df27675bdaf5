from django.apps import AppConfig


class FinanceConfig(AppConfig):
    name = "finance"

    def ready(self):
        from finance import home  # noqa: F401  (registers the "My dues" home panel)
