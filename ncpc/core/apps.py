from pathlib import Path

from django.apps import AppConfig, apps
from django.conf import settings
from django.db import models


class NcpcConfig(AppConfig):
    # The core keeps the label "ncpc": its tables, migrations and permissions keep their names.
    name = "ncpc.core"
    label = "ncpc"
    verbose_name = "NCPC core"

    def ready(self) -> None:
        from django.contrib.admin.models import LogEntry

        from ncpc.core.cache import data_version_watch
        from ncpc.core.models import DataVersion, MailDelivery, PasswordResetRequest, SheetImport

        # Bookkeeping of the site itself (mail sent, reset requests, a previewed file) changes no page.
        unwatched = {DataVersion, MailDelivery, PasswordResetRequest, SheetImport}
        data_version_watch([LogEntry, *(m for m in project_models() if m not in unwatched)])


def project_models() -> list[type[models.Model]]:
    """The models of the project's own apps (those in this repository, not installed packages)."""
    base = Path(settings.BASE_DIR).resolve()
    found: list[type[models.Model]] = []
    for config in apps.get_app_configs():
        path = Path(config.path).resolve()
        if path.is_relative_to(base) and "site-packages" not in path.parts:
            found.extend(config.get_models())
    return found
