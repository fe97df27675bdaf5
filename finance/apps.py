from django.apps import AppConfig


class FinanceConfig(AppConfig):
    name = "finance"

    def ready(self):
        from finance import home, profile  # noqa: F401  (registers the home and profile panels)
