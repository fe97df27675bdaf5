"""Settings for the test suite: the app's own settings as on a developer's machine (debug settings, the
dev secret key), with mail tasks run at once in the process (tests that need the queue and the worker
switch to the database backend themselves), and a fast password hash."""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from ncpc.settings import *  # noqa: E402,F403

TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}

# Every test member gets a password: Django's PBKDF2 (a million rounds, as the site keeps them) costs a quarter
# of a second each, nearly half of a page test's time. Tests check that a password works, never how slowly it
# hashes; the site's own hashers (ncpc.settings: Django's defaults) still read any password they stored.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]

# The test database: SQLite in memory, as Django makes it for SQLite, in each pytest-xdist worker (`make test`
# runs -n auto). Named here because pytest-django knows SQLite only by Django's own engine name: for
# ncpc.core.db.sqlite3 it would derive a file name from the project's database path.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}  # noqa: F405
