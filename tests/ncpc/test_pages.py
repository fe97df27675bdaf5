import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from events.models import Season
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PUBLIC = ("/accounts/login/", "/accounts/password_reset/", "/healthz")
PRIVATE = (
    "/",
    "/reports/",
    "/audit/",
    "/events/rules/",
    "/events/rules/2026-27/",
    "/accounts/password_change/",
)


def test_healthz_answers_ok_after_touching_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"


@pytest.mark.parametrize("url", PUBLIC)
def test_public_pages_open_without_login(client, url):
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("url", PRIVATE)
def test_every_other_page_sends_anonymous_visitors_to_log_in(client, season, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_login_then_home_shows_the_next_event(client, member):
    response = client.post(reverse("login"), {"username": "member1", "password": "pw-for-tests-123"})
    assert response.status_code == 302
    page = client.get("/")
    assert page.status_code == 200
    # The first event after 29 Nov 2026 is the December event, on the 2nd Saturday.
    assert "Saturday, December 12" in page.content.decode()


def test_navigation_shows_officer_pages_only_to_officers(client, member, vice_president):
    client.force_login(member)
    assert "Season rules" not in client.get("/").content.decode()
    client.force_login(vice_president)
    assert "Season rules" in client.get("/").content.decode()


def test_unknown_address_gives_the_friendly_404(member_client):
    response = member_client.get("/no-such-page/")
    assert response.status_code == 404
    assert "There is no page at this address" in response.content.decode()


def test_member_gets_403_on_officer_pages(member_client):
    response = member_client.get("/events/venues/")
    assert response.status_code == 403
    assert "Not allowed" in response.content.decode()
    assert member_client.get("/audit/").status_code == 403


def test_static_files_are_local_not_from_a_cdn(member_client):
    html = member_client.get("/").content.decode()
    assert "/static/vendor/bootstrap/bootstrap.min.css" in html
    assert "cdn" not in html.lower()


def test_the_about_page_shows_the_bylaws_numbers_before_the_first_season(client):
    client.force_login(UserFactory())
    page = client.get("/about/").content.decode()
    assert "a $1,500 buy-in" in page and "$700 in expenses" in page
    assert "every month from August to April" in page
    assert "At most 20 members" in page
    assert "10 events a season, 7:00 PM on the fourth Saturday (the second in November and December" in page
    assert "Points for the top 10 places each night" in page
    assert "Dues are paid by the December event" in page


def test_the_about_page_shows_the_current_seasons_rules(member_client, season):
    Season.objects.filter(pk=season.pk).update(
        wsop_entry=Decimal("2000.00"),
        max_members=18,
        points_table=[5, 3, 1],
        event_start_time=dt.time(19, 30),
    )
    page = member_client.get("/about/").content.decode()
    assert "a $2,000 buy-in" in page
    assert "At most 18 members" in page
    assert "7:30 PM on the fourth Saturday" in page
    assert "top 3 places" in page
