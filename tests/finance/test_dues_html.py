"""The dues outlook, the good-standing badge and the home page's dues panel (templates/finance/partials)."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.template.loader import render_to_string

from finance.services.dues import DuesStatus
from finance.services.forecast import DuesOutlook


def outlook_html(outlook: DuesOutlook) -> str:
    return render_to_string("finance/partials/outlook.html", {"outlook": outlook})


def standing_badge_html(ok: bool) -> str:
    return render_to_string("finance/partials/standing_badge.html", {"ok": ok})


def dues_panel_html(**panel) -> str:
    return render_to_string("finance/partials/home_dues.html", {"panel": panel})


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def _outlook(**changes) -> DuesOutlook:
    values = {
        "on": dt.date(2026, 12, 2),
        "balance": Decimal("0.00"),
        "next_event": dt.date(2026, 12, 12),
        "due_at_next_event": Decimal("0.00"),
        "to_play": Decimal("0.00"),
        "late_fee": Decimal("0.00"),
        "late_fee_date": None,
        "avoid_late_fee": Decimal("0.00"),
    }
    return DuesOutlook(**{**values, **changes})


def test_paid_up_before_the_next_event():
    html = outlook_html(_outlook())
    assert _text(html) == "You may play on Dec 12: nothing more to pay by then."
    assert '<ul class="list-unstyled mb-0 outlook">' in html


@pytest.mark.django_db  # the late fee's rule reference is the club's (its identity)
def test_owing_to_play_with_dues_falling_due_and_a_late_fee_ahead():
    html = outlook_html(
        _outlook(
            balance=Decimal("205.00"),
            to_play=Decimal("1205.00"),
            due_at_next_event=Decimal("1000.00"),
            late_fee=Decimal("25.00"),
            late_fee_date=dt.date(2027, 1, 12),
            avoid_late_fee=Decimal("1205.00"),
        )
    )
    assert _text(html) == (
        "To play on Dec 12: pay $1,205.00 by then (at the door counts). $1,000.00 falls due that day. "
        "A $25.00 late fee is charged on Jan 12 unless $1,205.00 is paid by then (§2.10)."
    )
    assert '<li class="text-danger">' in html


def test_no_event_left_and_no_fee_ahead_is_an_empty_list():
    assert _text(outlook_html(_outlook(next_event=None))) == ""


def test_badge():
    assert _text(standing_badge_html(True)) == "Good standing"
    assert _text(standing_badge_html(False)) == "Not in good standing"


def test_panel_owed_credit_and_paid_up():
    status = DuesStatus(
        on=dt.date(2026, 12, 2),
        charged=Decimal("410.00"),
        late_fees=Decimal("0.00"),
        paid=Decimal("0.00"),
        balance=Decimal("410.00"),
    )
    owed = dues_panel_html(status=status, outlook=_outlook(balance=Decimal("410.00")), good_standing=False)
    assert _text(owed).startswith("$410.00 due As of Dec 2, 2026 Not in good standing")
    assert _text(owed).endswith("My statement") and 'href="/finance/me/"' in owed
    ahead = dues_panel_html(status=status, outlook=_outlook(balance=Decimal("-100.00")), good_standing=True)
    assert _text(ahead).startswith("credit $100.00 As of Dec 2, 2026 Good standing")
    even = dues_panel_html(status=status, outlook=_outlook(), good_standing=True)
    assert _text(even).startswith("Paid up As of Dec 2, 2026 Good standing")
    assert _text(dues_panel_html(status=None, outlook=_outlook(), good_standing=False)) == (
        "You hold no seat this season."
    )
