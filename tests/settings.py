"""Settings for the test suite: the app's own settings as on a developer's machine (debug settings, the
dev secret key), with mail tasks run at once in the process (tests that need the queue and the worker
switch to the database backend themselves)."""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from ncpc.settings import *  # noqa: E402,F403

TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
