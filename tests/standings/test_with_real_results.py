"""End to end with the events app's results entry (no hand-made placings)."""

import pytest
from django.core import mail

from events.services.results import bust_record, results_finish
from standings.selectors import season_standings
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db


def test_a_finished_night_updates_the_standings_and_mails_the_members_once(
    season, vice_president, django_capture_on_commit_callbacks, monkeypatch
):
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
