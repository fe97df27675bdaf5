"""Database engines: Django's PostgreSQL and SQLite backends, with the data version bumped before COMMIT.

``settings.DATABASES`` names ``ncpc.core.db.postgresql`` or ``ncpc.core.db.sqlite3`` as the ENGINE (see ncpc/cache.py).
"""
