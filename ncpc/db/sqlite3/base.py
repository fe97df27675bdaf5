from django.db.backends.sqlite3 import base

from ncpc.db.base import DataVersionOnCommit


class DatabaseWrapper(DataVersionOnCommit, base.DatabaseWrapper):
    pass
