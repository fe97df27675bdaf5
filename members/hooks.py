"""What members asks of the apps above it (finance), answered in their ``AppConfig.ready()`` (see ncpc.core.hooks)."""

import datetime as dt
from typing import Protocol

from members.models import Membership
from ncpc.core.hooks import Hook


class DuesPaidUp(Protocol):
    """finance.selectors.dues.dues_paid_up: had the member paid every charge dated on or before ``on`` (§2.11)?"""

    def __call__(self, *, membership: Membership, on: dt.date) -> bool: ...


dues_paid_up: Hook[DuesPaidUp] = Hook("dues_paid_up(membership, on)", "finance")


class LastPaymentOn(Protocol):
    """finance.selectors.dues.last_payment_on: the day of the member's latest payment that stands (not reversed),
    or None."""

    def __call__(self, *, membership: Membership) -> dt.date | None: ...


last_payment_on: Hook[LastPaymentOn] = Hook("last_payment_on(membership)", "finance")
