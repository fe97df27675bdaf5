"""A month closing while an officer records money dated in it (SPEC §16.1 with two officers at once): the
payment either lands before the close reads anything, or is refused; never booked into the closed month.
Needs PostgreSQL's row and table locks (SQLite runs one writer at a time)."""

import sys
import threading
from decimal import Decimal

import pytest
from django.db import connection, connections

from finance.models import ClosedMonth, Payment
from finance.services import ledger
from finance.services.ledger import MonthClosed
from finance.services.month_closing import month_close
from tests.finance.factories import pay
from tests.finance.test_closing import OCT, books, december, figures  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="needs PostgreSQL's locks"),
]


def pause_in_transaction_post(monkeypatch, *, call: int, reached: threading.Event, go: threading.Event):
    """The payer's thread stops at its ``call``-th closed-month check made by ``transaction_post`` (1: before
    the INSERT, 2: after it), until ``go``."""
    real = ledger.month_open_check
    seen = {"n": 0}

    def check(*, day):
        if (
            threading.current_thread().name == "payer"
            # The first check is in its _posting_check, the second in transaction_post itself.
            and sys._getframe(1).f_code.co_name in ("_posting_check", "transaction_post")
        ):
            seen["n"] += 1
            if seen["n"] == call == 1:  # checked, found open, then held up before writing
                real(day=day)
                reached.set()
                assert go.wait(20)
                return
            if seen["n"] == call:  # written, held up before the second check and COMMIT
                reached.set()
                assert go.wait(20)
        real(day=day)

    monkeypatch.setattr(ledger, "month_open_check", check)


def payer_thread(books, treasurer, outcome: dict) -> threading.Thread:  # noqa: F811
    def run():
        try:
            pay(membership=books["ann"], day="2026-10-20", amount="10.00", actor=treasurer)
            outcome["payer"] = "booked"
        except MonthClosed:
            outcome["payer"] = "refused"
        except Exception as exc:  # reported by the test, not lost in the thread
            outcome["payer"] = repr(exc)
        finally:
            connections.close_all()

    return threading.Thread(target=run, name="payer")


def test_a_payment_checked_just_before_october_closes_is_refused_not_booked_into_it(
    books,  # noqa: F811
    treasurer,
    monkeypatch,
):
    reached, go, outcome = threading.Event(), threading.Event(), {}
    pause_in_transaction_post(monkeypatch, call=1, reached=reached, go=go)
    payer = payer_thread(books, treasurer, outcome)
    payer.start()
    assert reached.wait(20)  # the payer found October open ...
    month_close(day=OCT, actor=treasurer)  # ... and October closes before it writes
    closed_october = figures(2026, 10)
    go.set()
    payer.join(30)
    assert outcome == {"payer": "refused"}
    assert not Payment.objects.filter(amount=Decimal("10.00")).exists()
    assert figures(2026, 10) == closed_october


def test_a_payment_written_but_not_committed_when_october_closes_is_waited_for_and_in_the_report(
    books,  # noqa: F811
    treasurer,
    monkeypatch,
):
    reached, go, outcome = threading.Event(), threading.Event(), {}
    pause_in_transaction_post(monkeypatch, call=2, reached=reached, go=go)
    payer = payer_thread(books, treasurer, outcome)
    payer.start()
    assert reached.wait(20)  # the payer's INSERT is done, not committed

    def close():
        try:
            month_close(day=OCT, actor=treasurer)
            outcome["closer"] = "closed"
        except Exception as exc:
            outcome["closer"] = repr(exc)
        finally:
            connections.close_all()

    closer = threading.Thread(target=close, name="closer")
    closer.start()
    closer.join(1.5)
    assert closer.is_alive(), "the close must wait for the payment being written"
    assert not ClosedMonth.objects.exists()
    go.set()
    payer.join(30)
    closer.join(30)
    assert outcome == {"payer": "booked", "closer": "closed"}
    ann = next(r for r in figures(2026, 10)[1] if r[0] == "Ann Able")
    assert ann[3] == Decimal("320.00")  # paid: $310 on Oct 10 and the $10 of Oct 20
    assert connection.vendor == "postgresql"
