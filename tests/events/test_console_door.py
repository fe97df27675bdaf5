"""The night console asks for the door list (who must pay to play) only for an officer who may open it."""

import datetime as dt

import time_machine
from django.urls import reverse

from members.models import OfficerTerm, Person
from tests.factories import OfficerTermFactory, member_user


def console_html(client, season) -> str:
    url = reverse("events:console", kwargs={"season": season.name, "number": 1})
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_vice_presidents_console_does_not_poll_the_treasurers_door_list(client, season):
    client.force_login(member_user(season=season, office=OfficerTerm.Office.VICE_PRESIDENT))
    with time_machine.travel(dt.datetime(2026, 9, 12, 18, 0), tick=False):
        html = console_html(client, season)
    assert 'data-door-url=""' in html


def test_an_officer_who_is_also_treasurer_gets_the_door_list_on_the_console(client, season):
    user = member_user(season=season, office=OfficerTerm.Office.VICE_PRESIDENT)
    OfficerTermFactory(
        person=Person.objects.get(user=user),
        office=OfficerTerm.Office.TREASURER,
        start=dt.date(2026, 6, 1),
        end=dt.date(2027, 5, 31),
    )
    client.force_login(user)
    with time_machine.travel(dt.datetime(2026, 9, 12, 18, 0), tick=False):
        html = console_html(client, season)
    door = reverse("finance:door_list", kwargs={"season": season.name, "number": 1}) + "?fragment=1"
    assert f'data-door-url="{door}"' in html
