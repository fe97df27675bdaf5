"""Schedule, event page, calendar feeds, venues, moving and announcing, and the entry pages' permissions."""

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from events.errors import AnnouncementLate
from events.ical import calendar_token
from events.models import Event, Venue
from events.services.event_edit import event_announce, event_move
from events.services.results import bust_record, results_finish
from events.templatetags import events_tags
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make
from tests.factories import VenueFactory

pytestmark = pytest.mark.django_db


def test_season_urls_do_not_clash_with_fixed_words():
    assert reverse("events:schedule", kwargs={"season": "2026-27"}) == "/events/2026-27/"
    assert reverse("events:event", kwargs={"season": "2026-27", "number": 4}) == "/events/2026-27/4/"
    assert reverse("events:rules_current") == "/events/rules/"
    assert reverse("season_new") == "/events/seasons/new/"


def test_the_current_schedule_redirects_to_the_season(member_client, season):
    response = member_client.get("/events/")
    assert response.status_code == 302 and response.url == "/events/2026-27/"


def test_the_schedule_lists_the_ten_dates_and_links_the_calendar(member_client, season):
    response = member_client.get("/events/2026-27/")
    text = response.content.decode()
    assert response.status_code == 200
    assert "Sat Aug 22, 2026" in text and "Sat Apr 24, 2027" in text
    assert "/events/2026-27.ics" in text


def test_anonymous_visitors_are_sent_to_log_in(client, season):
    response = client.get("/events/2026-27/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_the_event_page_shows_places_and_points(member_client, season, today):
    event, s = night_make(season=season, players=4)
    # member_client's member sits at the event too: mark the seat absent so it is not among the players.
    from events.services.attendance import attendance_set

    seat = event.attendances.get(membership__person__key="member1")
    attendance_set(
        event=event, attendance_id=seat.pk, status="absent", version=event.results_version, actor=None
    )
    for key in "dcb":
        event.refresh_from_db()
        bust_record(event=event, attendance_ids=[s[key].pk], version=event.results_version, actor=None)
    event.refresh_from_db()
    results_finish(event=event, version=event.results_version, actor=None)
    text = member_client.get("/events/2026-27/4/").content.decode()
    assert "A Player" in text and "D Player" in text
    # §10: 1st place → 10 points, 4th → 7.
    assert ">10<" in text.replace(" ", "") and ">7<" in text.replace(" ", "")
    assert "chips removed" in text


@pytest.mark.parametrize("page", ["results", "attendance"])
def test_a_member_gets_403_on_the_entry_pages(member_client, season, page):
    assert member_client.get(f"/events/2026-27/4/{page}/").status_code == 403


def test_a_member_cannot_post_a_bust(member_client, season, today):
    event, s = night_make(season=season, players=3)
    response = member_client.post(
        "/events/2026-27/4/results/bust/", {"player": s["c"].pk, "version": event.results_version}
    )
    assert response.status_code == 403 and not event.eliminations.exists()


def test_an_officer_enters_a_same_hand_double_bust_in_the_browser(officer_client, season, today):
    event, s = night_make(season=season, players=4)
    page = officer_client.get("/events/2026-27/4/results/")
    assert page.status_code == 200
    event.refresh_from_db()
    response = officer_client.post(
        "/events/2026-27/4/results/bust/",
        {
            "version": event.results_version,
            "player": [s["d"].pk, s["c"].pk],
            f"chips_{s['d'].pk}": "3,000",
            f"chips_{s['c'].pk}": "7000",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert {e.attendance_id: e.start_chips for e in event.eliminations.all()} == {
        s["d"].pk: 3000,
        s["c"].pk: 7000,
    }
    assert "C Player" in response.content.decode()


def test_a_stale_page_gets_changed_meanwhile_and_nothing_is_written(officer_client, season, today):
    event, s = night_make(season=season, players=4)
    stale = event.results_version
    bust_record(event=event, attendance_ids=[s["d"].pk], version=stale, actor=None)
    response = officer_client.post(
        "/events/2026-27/4/results/bust/", {"version": stale, "player": s["c"].pk}, follow=True
    )
    assert "changed meanwhile" in response.content.decode()
    assert event.eliminations.count() == 1


def test_undo_from_the_page(officer_client, season, today):
    event, s = night_make(season=season, players=4)
    bust_record(event=event, attendance_ids=[s["d"].pk], version=event.results_version, actor=None)
    event.refresh_from_db()
    officer_client.post("/events/2026-27/4/results/undo/", {"version": event.results_version, "hand": 1})
    assert not event.eliminations.exists()


def test_the_season_calendar_is_rfc_5545_in_new_york_time(member_client, season):
    response = member_client.get("/events/2026-27.ics")
    text = response.content.decode()
    assert response["Content-Type"].startswith("text/calendar")
    assert text.startswith("BEGIN:VCALENDAR\r\n") and text.endswith("END:VCALENDAR\r\n")
    assert text.count("BEGIN:VEVENT") == 10
    assert "DTSTART;TZID=America/New_York:20260822T190000" in text
    assert "TZID:America/New_York" in text
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))


def test_the_feed_parsed_back_keeps_a_venue_with_a_lone_carriage_return_as_one_value(member_client, season):
    """Issue 18: a lone CR in a venue address is escaped, not a raw line break that injects properties."""
    import icalendar

    venue = VenueFactory(name="Back room", address="12 Main St\rBEGIN:VEVENT\rSUMMARY:Free money")
    event = season.events.get(number=1)
    event.venue = venue
    event.save()
    text = member_client.get("/events/2026-27.ics").content
    assert b"\r\nBEGIN:VEVENT\rSUMMARY" not in text and b"\rSUMMARY:Free" not in text
    calendar = icalendar.Calendar.from_ical(text)
    events = calendar.walk("VEVENT")
    assert len(events) == 10
    first = next(e for e in events if e["UID"] == "ncpc-2026-27-1@ncpc.example")
    assert first["LOCATION"] == "Back room, 12 Main St\nBEGIN:VEVENT\nSUMMARY:Free money"
    assert str(first["SUMMARY"]) == "NCPC event 1 (2026-27)"
    assert first.decoded("DTSTART") == dt.datetime(2026, 8, 22, 19, 0, tzinfo=ZoneInfo("America/New_York"))


def test_event_uids_do_not_depend_on_the_host_name(member_client, season, settings):
    import icalendar

    settings.ALLOWED_HOSTS = ["ncpc.example", "poker.example"]
    settings.DEFAULT_FROM_EMAIL = "noreply@club.example"
    uids = []
    for host in ("ncpc.example", "poker.example"):
        text = member_client.get("/events/2026-27.ics", HTTP_HOST=host).content
        uids.append([str(e["UID"]) for e in icalendar.Calendar.from_ical(text).walk("VEVENT")])
    assert uids[0] == uids[1]
    assert uids[0][0] == "ncpc-2026-27-1@club.example"
    assert all("ncpc.example" not in uid and "poker.example" not in uid for uid in uids[0])


def test_each_event_reminds_a_day_before(member_client, season):
    import icalendar

    text = member_client.get("/events/2026-27.ics").content
    for event in icalendar.Calendar.from_ical(text).walk("VEVENT"):
        [alarm] = event.walk("VALARM")
        assert alarm["ACTION"] == "DISPLAY"
        assert alarm.decoded("TRIGGER") == dt.timedelta(days=-1)


def test_the_schedule_offers_a_webcal_subscribe_button_beside_the_address(member_client, member, season):
    text = member_client.get("/events/2026-27/").content.decode()
    token = calendar_token(user=member)
    assert f'href="webcal://testserver/events/calendar/{member.pk}-{token}.ics"' in text
    assert f'value="http://testserver/events/calendar/{member.pk}-{token}.ics"' in text


def test_the_personal_feed_works_without_login_only_with_the_right_token(client, member, season):
    token = calendar_token(user=member)
    ok = client.get(f"/events/calendar/{member.pk}-{token}.ics")
    assert ok.status_code == 200 and b"BEGIN:VEVENT" in ok.content
    assert client.get(f"/events/calendar/{member.pk}-{'0' * 32}.ics").status_code == 404


def test_announcing_late_needs_the_confirmation_and_shows_as_late(season, today):
    event = season.events.get(number=5)  # Dec 12: 13 days after today (Nov 29), the bylaws want 14
    venue = VenueFactory()
    with pytest.raises(AnnouncementLate, match="14 days"):
        event_announce(event=event, venue=venue, actor=None)
    event = event_announce(event=event, venue=venue, actor=None, confirm_late=True)
    assert (event.announced_on, event.announced_late) == (dt.date(2026, 11, 29), True)


def test_announcing_fourteen_days_ahead_is_on_time(season, today):
    event = season.events.get(number=5)
    event = event_announce(event=event, venue=VenueFactory(), actor=None, on=dt.date(2026, 11, 28))
    assert event.announced_late is False


def test_a_moved_event_keeps_its_number_and_must_be_announced_again(season, today):
    event = event_announce(event=season.events.get(number=6), venue=VenueFactory(), actor=None)
    moved = event_move(event=event, date=dt.date(2027, 1, 30), actor=None, reason="host away")
    assert (moved.number, moved.date, moved.announced_on) == (6, dt.date(2027, 1, 30), None)
    assert AuditEntry.objects.filter(action="event.move", reason="host away").exists()


def test_an_officer_adds_a_venue(officer_client, season):
    officer_client.post("/events/venues/", {"name": "Lee garage", "address": "1 Elm St", "active": "on"})
    assert Venue.objects.filter(name="Lee garage").exists()


def test_a_member_cannot_open_the_venues_page(member_client, season):
    assert member_client.get("/events/venues/").status_code == 403


def test_the_announce_form_refuses_late_without_the_checkbox(officer_client, season, today):
    venue = VenueFactory()
    response = officer_client.post("/events/2026-27/5/announce/", {"venue": venue.pk}, follow=True)
    assert "Tick the confirmation" in response.content.decode()
    assert Event.objects.get(season=season, number=5).announced_on is None


@pytest.mark.parametrize(
    ("value", "percent"),
    [(Decimal("1.00"), "1%"), (Decimal("2.50"), "2.5%"), (Decimal("60.00"), "60%"), (3, "3%"), (None, "")],
)
def test_a_rules_percentage_is_written_as_people_write_it(value, percent):
    assert events_tags.percent(value) == percent


@pytest.mark.parametrize(
    ("value", "dollars"),
    [(Decimal("1500.00"), "$1,500"), (Decimal("700"), "$700"), (Decimal("12.50"), "$12.50"), ("x", "")],
)
def test_a_rules_amount_in_a_sentence_drops_zero_cents(value, dollars):
    assert events_tags.dollars(value) == dollars


def test_issue_15_item_12_the_attendance_message_shows_the_status_label(officer_client, season, today):
    event, s = night_make(season=season, players=3)
    response = officer_client.post(
        "/events/2026-27/4/attendance/set/",
        {"version": event.results_version, "attendance": s["c"].pk, "status": "absent"},
        follow=True,
    )
    text = response.content.decode()
    assert "C Player: Absent" in text
    assert "functools.partial" not in text


def test_spec_15_11_the_results_page_of_a_later_event_says_it_cannot_be_entered_yet(
    officer_client, season, today
):
    event, s = night_make(season=season, number=5, players=3)
    page = officer_client.get("/events/2026-27/5/results/").content.decode()
    assert "cannot be entered or finished before that day" in page
    response = officer_client.post(
        "/events/2026-27/5/results/bust/",
        {"version": event.results_version, "player": s["c"].pk},
        follow=True,
    )
    assert "its results cannot be entered before that day" in response.content.decode()
    assert not event.eliminations.exists()
