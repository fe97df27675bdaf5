"""Database engines: Django's PostgreSQL and SQLite backends, with the data version bumped before COMMIT.

``settings.DATABASES`` names ``ncpc.db.postgresql`` or ``ncpc.db.sqlite3`` as the ENGINE (see ncpc/cache.py).
"""
