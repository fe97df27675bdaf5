"""The club's local date and time (America/New_York), the one place 'today' comes from."""

import datetime as dt

from django.utils import timezone


def club_now() -> dt.datetime:
    return timezone.localtime(timezone.now())


def club_today() -> dt.date:
    return club_now().date()
