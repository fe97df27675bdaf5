"""Issue 47: a night entered after the fact (a club starting mid-season back-enters the nights it played) sends
no results e-mail, and the officer is told why; tonight's night, finished after midnight, still mails.

The season is 2026-27 under the bylaws' schedule (§4.5: the 4th Saturday, the 2nd in November and December):
event 3 was on Sat Oct 24, 2026, event 4 on Sat Nov 14, 2026. The clock is America/New_York. Three players a, b, c and the Vice President (a member too) play: four members with an e-mail.
"""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from events.models import Event
from events.services.results import bust_record, results_finish, results_reopen
from events.services.results_mail_late import results_entered_late
from standings.models import ResultsNotice
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db

CLUB = ZoneInfo("America/New_York")

PAST_NIGHT_SENTENCE = (
    "No results e-mail was sent: event 3 was played on Oct 24, 2026 and its results became final on "
    "Nov 29, 2026, more than a day after the night. A night entered after the fact is not e-mailed to the "
    "members; results made final on the night or the day after are."
)


@pytest.fixture(autouse=True)
def everyone_may_play(monkeypatch):
    # Dues and signatures belong to finance and members; here everyone may play.
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)


def play_down_to_a(event, seats, actor):
    """Everyone but ``a`` goes out, one a hand: the Vice President first, then c, then b."""
    for key in ("vp", "c", "b"):
        event.refresh_from_db()
        bust_record(event=event, attendance_ids=[seats[key].pk], version=event.results_version, actor=actor)
    event.refresh_from_db()


def finish(event, actor, capture):
    event.refresh_from_db()
    with capture(execute=True):
        results_finish(event=event, version=event.results_version, actor=actor)


def at_club_time(year, month, day, hour, minute):
    """A moment on the club's clock (America/New_York)."""
    return time_machine.travel(dt.datetime(year, month, day, hour, minute, tzinfo=CLUB), tick=False)


@pytest.mark.parametrize(
    ("final_on", "late"),
    [
        (dt.date(2026, 11, 14), False),  # on the night
        (dt.date(2026, 11, 15), False),  # after midnight, or the next morning
        (dt.date(2026, 11, 16), True),  # two days later: entered after the fact
        (dt.date(2026, 11, 29), True),
    ],
)
def test_results_are_late_when_made_final_more_than_one_day_after_the_night(final_on, late):
    assert results_entered_late(event_date=dt.date(2026, 11, 14), final_on=final_on) is late


def test_a_past_night_entered_now_sends_no_mail_and_the_officer_is_told_why(
    season, vice_president, officer_client, django_capture_on_commit_callbacks
):
    event, seats = night_make(season=season, number=3, players=3)  # Oct 24; today is Nov 29
    play_down_to_a(event, seats, vice_president)

    page = officer_client.get(reverse("events:results", args=[season.name, 3])).content.decode()
    assert (
        "Finishing sends no results e-mail: event 3 was played on Oct 24, 2026 and its results become final "
        "on Nov 29, 2026, more than a day after the night."
    ) in page
    assert "Finishing e-mails the results to every member." not in page

    with django_capture_on_commit_callbacks(execute=True):
        response = officer_client.post(
            reverse("events:results_finish", args=[season.name, 3]),
            {"version": event.results_version},
            follow=True,
        )
    event.refresh_from_db()
    assert event.status == Event.Status.FINAL
    assert mail.outbox == []
    assert not ResultsNotice.objects.exists()
    assert f"Results final. Winner: A Player. {PAST_NIGHT_SENTENCE}" in response.content.decode()


def test_tonights_night_finished_after_midnight_still_mails_every_member(
    season, vice_president, django_capture_on_commit_callbacks
):
    with at_club_time(2026, 11, 14, 19, 0):
        event, seats = night_make(season=season, number=4, players=3)  # Sat Nov 14, 7 PM
        play_down_to_a(event, seats, vice_president)
    with at_club_time(2026, 11, 15, 0, 40):  # the last hand ended after midnight
        finish(event, vice_president, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 4
    assert all(m.subject.startswith("NCPC results: event 4") for m in mail.outbox)
    assert ResultsNotice.objects.get().recipients == 4


def test_the_same_night_finished_two_days_later_sends_no_mail(
    season, vice_president, django_capture_on_commit_callbacks
):
    with at_club_time(2026, 11, 16, 0, 10):  # Monday just after midnight: two club days after Saturday
        event, seats = night_make(season=season, number=4, players=3)
        play_down_to_a(event, seats, vice_president)
        finish(event, vice_president, django_capture_on_commit_callbacks)
    assert mail.outbox == []


def test_a_correction_follows_the_first_finish(season, vice_president, django_capture_on_commit_callbacks):
    """A night e-mailed on time and corrected a week later is e-mailed again, as corrected results; a night
    entered after the fact and corrected is not."""
    with at_club_time(2026, 11, 14, 22, 0):
        tonight, seats4 = night_make(season=season, number=4, players=3)
        play_down_to_a(tonight, seats4, vice_president)
        finish(tonight, vice_president, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 4
    past, seats3 = night_make(season=season, number=3, players=0)  # today (Nov 29): Oct 24 entered late
    past_seats = {a.membership.person.key: a for a in past.attendances.select_related("membership__person")}
    play_down_to_a(past, past_seats, vice_president)
    finish(past, vice_president, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 4

    for event in (tonight, past):
        event.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            results_reopen(event=event, version=event.results_version, actor=vice_president, reason="typo")
        finish(event, vice_president, django_capture_on_commit_callbacks)
    corrected = mail.outbox[4:]
    assert len(corrected) == 4
    assert all(m.subject.startswith("NCPC corrected results: event 4") for m in corrected)
