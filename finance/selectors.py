"""Reads about money that pages and other apps share."""

import datetime as dt


def good_standing(*, membership, on: dt.date) -> bool:
    """SPEC §2, §7: every charge dated on or before ``on`` is paid, and no suspension covers ``on``.

    The one function results entry and every page use. Until the dues ledger exists (money issue) it only
    checks suspensions.
    """
    from members.selectors import suspended_on

    return not suspended_on(membership=membership, on=on)


def event_payout_lines(*, event) -> list:
    """The cash prizes of an event, as ``finance.services.payouts.PayoutLine`` values, best place first.

    Interface for the event page and standings. Until payouts exist (money issue) there are none.
    """
    return []
