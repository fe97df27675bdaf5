import pytest

from ncpc.club.services.season_import import season_import
from tests.factories import UserFactory
from tests.ncpc.season_files import season_file

pytestmark = pytest.mark.django_db

URL = "/api/v1/seasons/2026-27/report"


@pytest.fixture
def imported():
    return season_import(data=season_file(10, rotate=False))


def test_anonymous_visitors_get_401_and_no_data(client, imported):
    response = client.get(URL)
    assert response.status_code == 401
    assert "standings" not in response.content.decode()


@pytest.fixture
def m01_client(client, imported):
    from members.models import Person

    user = UserFactory(username="m01")
    Person.objects.filter(key="m01").update(user=user)
    client.force_login(user)
    return client


def test_a_member_reads_the_season_report_as_json(m01_client):
    client = m01_client
    response = client.get(URL, {"as_of": "2027-07-31"})
    assert response.status_code == 200
    data = response.json()
    assert data["format"] == "ncpc-season-report/1"
    assert data["as_of"] == "2027-07-31"
    assert data["standings"][0] == {
        "member": "m01",
        "rank": 1,
        "points": 100,
        "events_played": 10,
        "wsop": "qualified",
    }


def test_a_login_that_is_not_a_member_gets_403(client, imported):
    client.force_login(UserFactory(username="outsider"))
    assert client.get(URL).status_code == 403


def test_a_bad_date_is_a_400_with_a_message(m01_client):
    response = m01_client.get(URL, {"as_of": "July"})
    assert response.status_code == 400
    assert response.json() == {"error": "as_of must be a date like 2027-07-31."}


def test_an_unknown_season_is_a_404(member_client):
    assert member_client.get("/api/v1/seasons/1999-00/report").status_code == 404
