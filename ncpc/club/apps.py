from django.apps import AppConfig


class ClubConfig(AppConfig):
    """The club-wide wiring: no models; its management commands, template tags and admin registrations."""

    name = "ncpc.club"
    label = "club"
    verbose_name = "NCPC club-wide pages"
