from django.db.backends.postgresql import base

from ncpc.core.db.base import DataVersionOnCommit


class DatabaseWrapper(DataVersionOnCommit, base.DatabaseWrapper):
    pass
