from django.apps import AppConfig


class NcpcConfig(AppConfig):
    # The core keeps the label "ncpc": its tables, migrations and permissions keep their names.
    name = "ncpc.core"
    label = "ncpc"
    verbose_name = "NCPC core"
