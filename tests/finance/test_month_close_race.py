"""A month closing while an officer records a member command dated in it (SPEC §17.2 with two officers at
once): an admission or a suspension checked against the closed months while November closes either commits
before the close reads anything (and the kept report counts it), or is refused naming November; never dated
inside a closed month. Needs PostgreSQL's locks (SQLite runs one writer at a time).

The club's date is Dec 5, 2026; the books start in October (``tests.finance.test_closing.books``: Ann paid $310
on Oct 10 and $100 on Nov 14, Bob $410 on Oct 24); October is closed, November is over and open."""

import datetime as dt
import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections  # noqa: F401  (connection: read by the skipif condition)

from finance.models import ClosedMonth
from finance.selectors.report_record import month_report_complete, report_record
from finance.services import month_closing
from finance.services.month_closing import month_close
from members.models import Membership, Suspension
from members.selectors import current_member_count
from members.services import admission as admission_module
from members.services import standing as standing_module
from members.services.admission import VoteCounts, member_admit
from members.services.standing import suspension_create
from ncpc.core.errors import NcpcError
from tests.factories import PersonFactory
from tests.finance.test_closing import OCT, books, december  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="needs PostgreSQL's locks"),
]
NOV, NOV_20 = dt.date(2026, 11, 1), dt.date(2026, 11, 20)
NOVEMBER_CLOSED = (
    "November 2026 is closed (its report was presented): nothing can be dated in it any more. "
    "Date it in the first open month, December 2026, or later."
)
WAIT = 1.5  # seconds a thread is given to show it waits


def admit_dan(books, treasurer) -> Callable[[], str]:  # noqa: F811
    """Dan admitted on Nov 20, sponsored by Ann, every current member voting yes."""
    dan = PersonFactory(first_name="Dan", last_name="Dunn")
    season = books["ann"].season

    def run() -> str:
        member_admit(
            person=dan,
            season=season,
            on=NOV_20,
            sponsor=books["ann"].person,
            vote=VoteCounts(held_on=NOV_20, yes=current_member_count(season=season)),
            declared_not_professional=True,
            actor=treasurer,
        )
        return "done"

    return run


def suspend_bob(books, treasurer) -> Callable[[], str]:  # noqa: F811
    """Bob suspended from Nov 20 to Dec 10 (not in good standing on the last days of November)."""

    def run() -> str:
        suspension_create(
            membership=books["bob"],
            start=NOV_20,
            end=dt.date(2026, 12, 10),
            reason="Abuse at the table",
            actor=treasurer,
        )
        return "done"

    return run


COMMANDS = {"admission": (admit_dan, admission_module), "suspension": (suspend_bob, standing_module)}


def written() -> dict[str, bool]:
    return {
        "admission": Membership.objects.filter(person__first_name="Dan").exists(),
        "suspension": Suspension.objects.filter(membership__person__first_name="Bob").exists(),
    }


def pause_after_the_check(monkeypatch, module, *, reached: threading.Event, go: threading.Event) -> None:
    """The officer's thread ("officer") finds November open, then stops before it writes, until ``go``."""
    real = module.closed_month_refuse

    def check(*, day, field):
        real(day=day, field=field)
        if threading.current_thread().name == "officer":
            reached.set()
            if not go.wait(20):
                raise RuntimeError("never let go")

    monkeypatch.setattr(module, "closed_month_refuse", check)


def pause_in_the_close(monkeypatch, *, reached: threading.Event, go: threading.Event) -> None:
    """The Treasurer's thread ("closer") stops inside ``month_close`` once it holds the postings (its locks
    taken, nothing read yet), until ``go``."""
    real = month_closing.postings_hold

    def hold():
        real()
        if threading.current_thread().name == "closer":
            reached.set()
            if not go.wait(20):
                raise RuntimeError("never let go")

    monkeypatch.setattr(month_closing, "postings_hold", hold)


def in_thread(name: str, work: Callable[[], str], outcome: dict) -> threading.Thread:
    def run():
        try:
            outcome[name] = work()
        except NcpcError as exc:
            outcome[name] = f"refused: {exc} (field {exc.field})"
        except Exception as exc:  # reported by the test, not lost in the thread
            outcome[name] = repr(exc)
        finally:
            connections.close_all()

    return threading.Thread(target=run, name=name)


def close_november(treasurer) -> Callable[[], str]:
    def run() -> str:
        month_close(day=NOV, actor=treasurer)
        return "closed"

    return run


def kept_november_is_todays_data() -> bool:
    """The report November kept is what November's data make now (who closed it aside)."""
    kept = ClosedMonth.objects.get(month=NOV).report
    now = report_record(month_report_complete(year=2026, month=11, today=dt.date(2026, 12, 5)))
    return now == {k: v for k, v in kept.items() if k != "closed_by"}


@pytest.fixture
def october_closed(books, treasurer):  # noqa: F811
    month_close(day=OCT, actor=treasurer)
    return books


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_checked_before_november_closes_is_waited_for_and_in_the_kept_report(
    october_closed, treasurer, monkeypatch, command
):
    make, module = COMMANDS[command]
    work = make(october_closed, treasurer)
    reached, go, outcome = threading.Event(), threading.Event(), {}
    pause_after_the_check(monkeypatch, module, reached=reached, go=go)
    officer = in_thread("officer", work, outcome)
    officer.start()
    assert reached.wait(20)  # the officer found November open, and has not written yet
    closer = in_thread("closer", close_november(treasurer), outcome)
    closer.start()
    closer.join(WAIT)
    waited = closer.is_alive()
    go.set()
    officer.join(30)
    closer.join(30)
    assert waited, "the close must wait for the command that found November open"
    assert outcome == {"officer": "done", "closer": "closed"}
    assert written()[command]
    assert kept_november_is_todays_data()
    names = [row["name"] for row in ClosedMonth.objects.get(month=NOV).report["members"]]
    assert ("Dan Dunn" in names) == (command == "admission")  # admitted Nov 20: in November's fees table


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_checked_while_november_closes_waits_and_is_refused_naming_november(
    october_closed, treasurer, monkeypatch, command
):
    make, module = COMMANDS[command]
    work = make(october_closed, treasurer)
    reached, go, outcome = threading.Event(), threading.Event(), {}
    pause_in_the_close(monkeypatch, reached=reached, go=go)
    closer = in_thread("closer", close_november(treasurer), outcome)
    closer.start()
    assert reached.wait(20)  # the close holds its locks, has read nothing, not committed
    officer = in_thread("officer", work, outcome)
    officer.start()
    officer.join(WAIT)
    waited = officer.is_alive()
    go.set()
    closer.join(30)
    officer.join(30)
    assert waited, "the command must wait for the close under way"
    field = {"admission": "on", "suspension": "start"}[command]
    assert outcome == {"closer": "closed", "officer": f"refused: {NOVEMBER_CLOSED} (field {field})"}
    assert not written()[command]
    assert kept_november_is_todays_data()
