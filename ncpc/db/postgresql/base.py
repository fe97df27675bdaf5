from django.db.backends.postgresql import base

from ncpc.db.base import DataVersionOnCommit


class DatabaseWrapper(DataVersionOnCommit, base.DatabaseWrapper):
    pass
