from django.apps import AppConfig


class NcpcConfig(AppConfig):
    name = "ncpc"
    verbose_name = "NCPC core"
