"""Two officers entering at once (real transactions, PostgreSQL): exactly one bust wins, the other is refused."""

import threading

import pytest
from django.db import connection, connections

from events.services.results import bust_record
from ncpc.core.errors import ConcurrentChange
from tests.events.factories import night_make
from tests.factories import season_make


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks need PostgreSQL")
def test_two_officers_busting_at_once_one_gets_changed_meanwhile():
    assert connection.vendor == "postgresql"
    season = season_make(2026)
    event, s = night_make(season=season, players=4)
    version = event.results_version
    outcomes = []
    barrier = threading.Barrier(2)

    def officer(seat):
        try:
            barrier.wait()
            bust_record(event=event, attendance_ids=[seat.pk], version=version, actor=None)
            outcomes.append("ok")
        except ConcurrentChange:
            outcomes.append("conflict")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=officer, args=(s[k],)) for k in "cd"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "ok"]
    assert event.eliminations.count() == 1
