"""The club whose October event is corrected after its month closed (SPEC §17.2, issue 45), shared by the
payout correction tests (``test_payout_corrections``, ``test_correction_approval``, ``test_followups_45``).

Event 3 (Oct 24, 2026) had 11 members on its roster, so the bylaws' payout table (§6.2) paid $165, $100 and
$65: Ann 1st, Bob 2nd, Cy 3rd, paid in cash that night from the cash box (opened with $500.00 on Aug 1). August
to October are closed on Dec 5, the clock's day from then on."""

import contextlib
import datetime as dt
from collections.abc import Iterator, Sequence

import pytest
import time_machine

from events.services.attendance import attendance_prepare
from events.services.results import bust_record, bust_undo, results_finish, results_reopen
from finance.models import Account
from finance.services.event_payouts import event_payout_post
from finance.services.month_closing import month_close
from tests.factories import MembershipFactory, OfficerTermFactory, PersonFactory, UserFactory
from tests.finance.factories import opening_balance

DEC_5 = dt.datetime(2026, 12, 5, 17, 0, tzinfo=dt.UTC)
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]


@pytest.fixture
def everyone_eligible(monkeypatch):
    """Every member is in good standing and has signed the rules: the night's seats are the roster's."""
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)


@contextlib.contextmanager
def october_played(*, season, treasurer, officers: Sequence[tuple[str, str]] = ()) -> Iterator[tuple]:
    """Event 3 played on Oct 24 by ten members (Ann … Jo; the Treasurer is the 11th on the roster, absent):
    Ann 1st, Bob 2nd, Cy 3rd, paid out in cash that night; August to October closed. ``officers``: (key,
    office) of the members who are also officers, with logins named by their keys, from Jun 1, 2026 to May 31,
    2027. Yields (the event, its seats by person key) with the clock at Dec 5."""
    opening_balance(code=Account.CASH, amount="500.00", day="2026-08-01", actor=treasurer)
    for name in NAMES:
        MembershipFactory(
            season=season, person=PersonFactory(key=name.lower(), first_name=name, last_name="Test")
        )
    for key, office in officers:
        person = season.memberships.get(person__key=key).person
        person.user = UserFactory(username=key)
        person.save(update_fields=["user"])
        OfficerTermFactory(person=person, office=office, start=dt.date(2026, 6, 1), end=dt.date(2027, 5, 31))
    event = season.events.get(number=3)
    attendance_prepare(event=event)
    seats = {a.membership.person.key: a for a in event.attendances.select_related("membership__person")}
    with time_machine.travel(dt.datetime(2026, 10, 24, 23, 0, tzinfo=dt.UTC), tick=False):
        treasurer_seat = event.attendances.get(membership__person__user=treasurer)
        treasurer_seat.status = treasurer_seat.Status.ABSENT
        treasurer_seat.save(update_fields=["status"])
        for name in reversed(NAMES[1:]):  # Jo out first … Bob out last: Ann wins
            october_bust(event, seats[name.lower()])
        event.refresh_from_db()
        results_finish(event=event, version=event.results_version, actor=treasurer)
        event_payout_post(event=event, actor=treasurer)
    with time_machine.travel(DEC_5, tick=False):
        for month in (8, 9, 10):
            month_close(day=dt.date(2026, month, 1), actor=treasurer)
        yield event, seats


@pytest.fixture
def october(everyone_eligible, season, treasurer, today):
    """The October club, no member an officer (the Treasurer aside)."""
    with october_played(season=season, treasurer=treasurer) as played:
        yield played


def october_bust(event, seat):
    event.refresh_from_db()
    return bust_record(event=event, attendance_ids=[seat.pk], version=event.results_version, actor=None)


def bob_won(event, seats, treasurer):
    """The results corrected: Ann's bust was missed; Bob won, Ann was 2nd."""
    event.refresh_from_db()
    results_reopen(
        event=event, version=event.results_version, actor=treasurer, reason="Ann busted before Bob"
    )
    event.refresh_from_db()
    last = event.eliminations.get(attendance=seats["bob"]).hand
    bust_undo(event=event, hand=last, version=event.results_version, actor=treasurer)
    october_bust(event, seats["ann"])
    event.refresh_from_db()
    results_finish(event=event, version=event.results_version, actor=treasurer)
    event.refresh_from_db()
