"""A points report of a past month says who was eligible then (issue 35): a member removed in December is
not "Not eligible" on the October report; the standings of today say what is true now."""

import datetime as dt

from django.urls import reverse

from members.models import Membership
from standings.selectors import season_standings, seats_as_of
from tests.standings.factories import seats


def leave(membership, *, after_event, on=None):
    Membership.objects.filter(pk=membership.pk).update(
        left_after_event=after_event, left_on=on, how_left=Membership.HowLeft.REMOVED
    )


def by_key(standings):
    return {row.key: row for row in standings.rows}


def test_a_member_removed_in_december_is_eligible_on_the_october_report_and_not_today(season, results):
    people = seats(season, 10)
    for number in (1, 2, 3):  # Aug 22, Sep 26, Oct 24
        results.set(number, people)
    leave(people[2], after_event=4, on=dt.date(2026, 12, 5))  # m03: removed in December
    leave(people[9], after_event=1, on=dt.date(2026, 9, 1))  # m10: left in September

    october = by_key(season_standings(season=season, through=dt.date(2026, 10, 31)))
    assert october["m03"].eligible and october["m03"].wsop != "ineligible"
    assert not october["m10"].eligible and october["m10"].wsop == "ineligible"  # gone before October 31

    now = by_key(season_standings(season=season))
    assert not now["m03"].eligible and now["m03"].wsop == "ineligible"


def test_the_october_report_page_shows_no_not_eligible_for_a_december_removal(member_client, season, results):
    people = seats(season, 10)
    for number in (1, 2, 3):
        results.set(number, people)
    leave(people[2], after_event=4, on=dt.date(2026, 12, 5))
    url = reverse("standings:points_report", kwargs={"season": season.name, "year": 2026, "month": 10})
    lines = member_client.get(url + "?format=csv").content.decode("utf-8-sig").strip().splitlines()
    m03 = next(line for line in lines if line.split(",")[1] == "m03")
    assert not m03.endswith(",ineligible")


def test_a_departure_without_a_recorded_day_counts_from_the_day_after_its_last_event(season):
    [seat] = seats(season, 1)
    leave(seat, after_event=4)  # history: no day recorded; event 4 is Nov 14, so the seat ended Nov 15
    events = list(season.events.all())
    [(left_after,)] = [
        (m.left_after_event,)
        for m in seats_as_of(
            memberships=[Membership.objects.get(pk=seat.pk)],
            on=dt.date(2026, 11, 14),
            events=events,
            season_start=season.start,
        )
    ]
    assert left_after is None  # still held on Nov 14
    [later] = seats_as_of(
        memberships=[Membership.objects.get(pk=seat.pk)],
        on=dt.date(2026, 11, 15),
        events=events,
        season_start=season.start,
    )
    assert later.left_after_event == 4
    assert Membership.objects.get(pk=seat.pk).left_after_event == 4  # nothing saved
