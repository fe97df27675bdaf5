"""The SQLite engine ``settings.DATABASES`` names (``ncpc.core.db.sqlite3``): see its module."""
