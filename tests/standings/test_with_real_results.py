"""End to end with the events app's results entry (no hand-made placings)."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail

from events.services.results import bust_record, bust_undo, results_finish, results_reopen
from standings.selectors import season_standings
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def on_the_night(vice_president):
    """Event 1's night (Sat Aug 22, 2026): results made final then are e-mailed; a night entered more than a day
    after its date is not (issue 47, tests/standings/test_results_mail_47.py)."""
    night = dt.datetime(2026, 8, 22, 23, 0, tzinfo=ZoneInfo("America/New_York"))
    with time_machine.travel(night, tick=False):
        yield


def test_a_finished_night_updates_the_standings_and_mails_the_members_once(
    season, vice_president, django_capture_on_commit_callbacks, monkeypatch, settings
):
    settings.SITE_URL = "https://ncpc.example"
    # Dues and signatures belong to finance and members; here everyone may play.
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    event, seats = night_make(season=season, number=1, players=10)
    # The vice president (also a member) is out first, then j, i, … b: a wins.
    for key in ["vp", *"jihgfedcb"]:
        event.refresh_from_db()
        bust_record(
            event=event, attendance_ids=[seats[key].pk], version=event.results_version, actor=vice_president
        )
    event.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        results_finish(event=event, version=event.results_version, actor=vice_president)

    standings = season_standings(season=season)
    top = [(r.key, r.rank_label, r.points) for r in standings.rows[:3]]
    assert top == [("a", "1", 10), ("b", "2", 9), ("c", "3", 8)]
    assert standings.member_count == 11  # ten players and the vice president → 1 WSOP seat
    assert standings.row_for(seats["vp"].membership_id).points == 0  # 11th place
    assert standings.rows[0].wsop == "qualified"
    assert len(mail.outbox) == 11
    assert any("1. A Player" in m.body for m in mail.outbox)
    assert all("under Standings: https://ncpc.example/standings/\n" in m.body for m in mail.outbox)


def test_corrected_results_after_a_reopening_are_emailed_again_marked_corrected(
    season, vice_president, django_capture_on_commit_callbacks, monkeypatch
):
    from ncpc.core.models import MailDelivery
    from standings.models import ResultsNotice

    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    event, seats = night_make(season=season, number=1, players=3)

    def out(key):
        event.refresh_from_db()
        bust_record(
            event=event, attendance_ids=[seats[key].pk], version=event.results_version, actor=vice_president
        )

    def finish():
        event.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            results_finish(event=event, version=event.results_version, actor=vice_president)

    for key in ["vp", "c", "b"]:
        out(key)
    finish()
    assert len(mail.outbox) == 4
    assert all("corrected" not in m.subject for m in mail.outbox)

    event.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        results_reopen(
            event=event, version=event.results_version, actor=vice_president, reason="b and c swapped"
        )
    for hand in (3, 2):  # b's and c's busts (vp was out on hand 1)
        event.refresh_from_db()
        bust_undo(event=event, hand=hand, version=event.results_version, actor=vice_president)
    out("b")
    out("c")
    finish()

    corrected = mail.outbox[4:]
    assert len(corrected) == 4
    assert all(m.subject.startswith("NCPC corrected results: event 1") for m in corrected)
    body = next(m.body for m in corrected if m.to == [seats["a"].membership.person.email])
    assert "were corrected" in body
    assert "  1. A Player" in body and "  2. C Player" in body and "  3. B Player" in body
    assert [n.corrected for n in ResultsNotice.objects.order_by("pk")] == [False, True]
    assert MailDelivery.objects.filter(kind="results_corrected", status="sent").count() == 4
