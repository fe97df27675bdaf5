"""Issue 45 (SPEC §17.2): the results entry page of an event whose month is closed says, when the results are
reopened or about to be, that the closed month's report stays as it was and the payout difference is proposed
for approval on the payouts page. Event 3 (Oct 24, 2026) played, October closed, the clock Dec 5."""

import datetime as dt

import pytest
from django.urls import reverse

from events.services.results import results_reopen
from tests.factories import member_user
from tests.finance.test_followups_45 import everyone_eligible, october  # noqa: F401

pytestmark = pytest.mark.django_db
NOTE = "October 2026 is closed:</strong> its report stays as it was."
LINK = '<a href="/finance/payouts/">payouts page</a>'


def _page(client, event):
    return client.get(reverse("events:results", args=(event.season.name, event.number))).content.decode()


def test_final_results_of_a_closed_months_event_say_where_the_difference_goes(october, president, client):  # noqa: F811
    event, _ = october
    client.force_login(president)
    page = _page(client, event)
    assert "Reopen for a correction" in page
    assert NOTE in page
    assert "the payout difference is proposed on the" in page
    assert "posted in the open month once the officers approve it, as a check." in page
    assert LINK in page


def test_reopened_results_of_a_closed_months_event_say_so_too(october, treasurer, president, client):  # noqa: F811
    event, _ = october
    event.refresh_from_db()
    results_reopen(
        event=event, version=event.results_version, actor=treasurer, reason="Ann busted before Bob"
    )
    client.force_login(president)
    page = _page(client, event)
    assert "Reopened for a correction" in page
    assert NOTE in page and LINK in page


def test_the_note_asks_about_the_events_own_day(october, president, client, monkeypatch):  # noqa: F811
    """The page asks the finance side (events.hooks.closed_month_refusal) about the event's own day: with no
    closed month on that day, the same final results carry no note."""
    event, _ = october
    asked = []

    def open_month(*, day):
        asked.append(day)

    monkeypatch.setattr("events.hooks.closed_month_refusal.answer", open_month)
    client.force_login(president)
    page = _page(client, event)
    assert "Reopen for a correction" in page
    assert "is closed:</strong>" not in page and LINK not in page
    assert asked == [dt.date(2026, 10, 24)]


def test_an_officer_without_the_ledger_reads_the_note_without_a_link_he_cannot_open(october, client):  # noqa: F811
    """The Vice President enters results but does not keep the ledger: the payouts page is the Treasurer's."""
    event, _ = october
    client.force_login(member_user(season=event.season, username="vp", office="vice_president"))
    page = _page(client, event)
    assert NOTE in page
    assert "proposed on the Treasurer's payouts page and posted" in page
    assert LINK not in page
