from django.apps import AppConfig


class MembersConfig(AppConfig):
    name = "members"

    def ready(self):
        from members import home  # noqa: F401  (registers the "Club votes" home panel)
