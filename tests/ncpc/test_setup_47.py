"""Issue 47, the "Start your club" checklist, second pass: the venues step can be done, a mid-season start says
the order in which the nights already played go in, the first season says it starts from the bylaws' rules,
and an officer's term reads with the same dates as the officers' table.

The clock is Sun Nov 29, 2026 (the ``today`` fixture). The 2026-27 season follows the bylaws' schedule (§4.5:
the 4th Saturday, the 2nd in November and December): Aug 22, Sep 26, Oct 24 and Nov 14 are already played.
"""

import datetime as dt
import io

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from events.models import Event, Season
from members.models import OfficerTerm
from ncpc.club.services.setup import MID_SEASON, setup_steps
from tests.factories import PersonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def president(client, today):
    call_command(
        "start_club",
        "--no-input",
        stdout=io.StringIO(),
        username="ada",
        email="ada@example.org",
        first_name="Ada",
        last_name="Byron",
        password="first-night-2026",
    )
    user = get_user_model().objects.get(username="ada")
    client.force_login(user)
    return user


def step(slug: str):
    return next(s for s in setup_steps() if s.slug == slug)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- The venues step -------------------------------------------------------------------------------------------


def test_a_club_that_records_no_venue_marks_the_venues_step_done(client, president):
    client.post(reverse("season_new"), {"start_year": 2026})
    assert not step("venues").done and step("venues").confirmable
    page = client.get(reverse("setup")).content.decode()
    assert '<input type="hidden" name="step" value="venues">' in page

    client.post(reverse("setup_confirm"), {"step": "venues"})
    venues = step("venues")
    assert venues.done and venues.confirmed


def test_a_venue_added_before_the_season_ticks_the_venues_step(client, president):
    client.post(reverse("events:venues"), {"name": "The Back Room", "address": "1 Main St", "active": "on"})
    assert not Season.objects.exists()
    venues = step("venues")
    assert venues.done and not venues.confirmed


def test_a_venue_no_longer_in_use_does_not_tick_the_venues_step(client, president):
    client.post(reverse("events:venues"), {"name": "The Back Room", "address": ""})  # "In use" left unticked
    assert not step("venues").done


# --- A mid-season start ----------------------------------------------------------------------------------------


def test_the_checklist_says_the_order_of_a_mid_season_start_and_points_to_the_oldest_night(client, president):
    nights = step("past_nights")
    assert not nights.done  # no season yet
    page = client.get(reverse("setup")).content.decode()
    assert "Nights already played" in page

    client.post(reverse("season_new"), {"start_year": 2026})
    nights = step("past_nights")
    assert nights.text == MID_SEASON
    order = [
        MID_SEASON.index("opening balances"),
        MID_SEASON.index("then the payments"),
        MID_SEASON.index("then the results of each night already played"),
    ]
    assert order == sorted(order)
    assert "Nights entered after the fact send no e-mail" in MID_SEASON
    slugs = [s.slug for s in setup_steps()]
    assert slugs.index("opening") + 1 == slugs.index("past_nights")
    # Aug 22 is the oldest of the four nights played before Nov 29.
    assert not nights.done
    assert nights.url == reverse("events:results", kwargs={"season": "2026-27", "number": 1})

    season = Season.objects.get()
    Event.objects.filter(season=season, number__in=(1, 2)).update(status=Event.Status.FINAL)
    assert step("past_nights").url == reverse("events:results", kwargs={"season": "2026-27", "number": 3})
    Event.objects.filter(season=season, number__in=(3, 4)).update(status=Event.Status.FINAL)
    nights = step("past_nights")
    assert nights.done
    assert nights.url == reverse("events:schedule_current")


def test_a_season_with_no_night_played_yet_has_nothing_to_back_enter(client, president):
    client.post(reverse("season_new"), {"start_year": 2026})
    with time_machine.travel(dt.datetime(2026, 8, 22, 12, 0, tzinfo=dt.UTC), tick=False):  # the first night
        assert step("past_nights").done


# --- The first season's message --------------------------------------------------------------------------------


def test_the_first_season_says_it_starts_from_the_bylaws_rules_and_the_next_from_the_season_before(
    client, president
):
    first = client.post(reverse("season_new"), {"start_year": 2026}, follow=True)
    assert (
        "Created season 2026-27 with its 10 events and the bylaws' rules; 0 members keep their seats "
        "(each signs the new rules document before playing)."
    ) in messages_of(first)
    assert not any("the season before" in m for m in messages_of(first))

    second = client.post(reverse("season_new"), {"start_year": 2027}, follow=True)
    assert any(
        m.startswith("Created season 2027-28 with its 10 events and the rules of the season before;")
        for m in messages_of(second)
    )


# --- An officer's term: one date format ------------------------------------------------------------------------


def test_a_recorded_term_reads_with_the_dates_of_the_officers_table(client, president):
    vera = PersonFactory(key="vera", first_name="Vera", last_name="Lane")
    response = client.post(
        reverse("members:officer_terms"),
        {"office": "vice_president", "person": vera.pk, "start": "2026-11-29", "end": "2027-05-31"},
        follow=True,
    )
    assert "Recorded: Vice President Vera Lane, Nov 29, 2026 – May 31, 2027." in messages_of(response)
    page = response.content.decode()
    assert (
        '<span class="text-nowrap">Nov 29, 2026</span> – <span class="text-nowrap">May 31, 2027</span>'
        in page
    )
    assert "2026-11-29 –" not in page

    clash = client.post(
        reverse("members:officer_terms"),
        {
            "office": "vice_president",
            "person": PersonFactory().pk,
            "start": "2027-01-01",
            "end": "2027-05-31",
        },
    )
    assert "Vera Lane already holds that office from Nov 29, 2026 to May 31, 2027." in clash.content.decode()
    assert OfficerTerm.objects.filter(office="vice_president").count() == 1


# --- The season file page --------------------------------------------------------------------------------------


def test_the_season_file_page_says_what_a_season_file_carries_and_names_the_backup_as_the_full_copy(
    client, president
):
    client.post(reverse("season_new"), {"start_year": 2026})
    reports = client.get(reverse("reports")).content.decode()
    assert f'href="{reverse("season_files")}"' in reports  # reachable: Reports → Season files

    page = client.get(reverse("season_files")).content.decode()
    carries = page[page.index('id="season-file-carries"') : page.index("What it does not carry")]
    leaves_out = page[page.index('id="season-file-leaves-out"') : page.index("The full copy of the club")]
    for carried in ("rules", "members", "results of every final event", "dues and fees paid"):
        assert carried in carries
    for left in ("opening balances", "event payouts", "The club's identity"):
        assert left in leaves_out
    assert "The full copy of the club is the database backup" in page
    assert 'href="/season-files/2026-27.json"' in page


def test_the_season_file_downloads_as_the_file_import_season_reads(client, president):
    import json

    client.post(reverse("season_new"), {"start_year": 2026})
    response = client.get(reverse("season_file_download", kwargs={"season": "2026-27"}))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="season-2026-27.json"'
    data = json.loads(response.content)
    assert (data["format"], data["season"]) == ("ncpc-season/1", {"name": "2026-27", "start": "2026-08-01"})
    assert data["rules"]["late_fee"] == "25.00"  # the bylaws' $25 a month (§2.10)
    assert client.get(reverse("season_file_download", kwargs={"season": "2030-31"})).status_code == 404


def test_a_member_who_is_no_officer_gets_no_season_file(client, season, member):
    client.force_login(member)
    assert client.get(reverse("season_files")).status_code == 403
    assert client.get(reverse("season_file_download", kwargs={"season": season.name})).status_code == 403
    assert 'href="/season-files/"' not in client.get(reverse("reports")).content.decode()
