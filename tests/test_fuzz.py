"""Fuzzing: random and hostile values posted to the results, payment, person and rules forms, and mutated
season files given to season_import. The answer is a form error or an NcpcError — never a 500 or a traceback
— and when the answer is an error, the database has not changed (row counts of the tables concerned)."""

import copy

import pytest
from django.contrib.messages import constants, get_messages
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from events.models import Attendance, Elimination, Event, PayoutRow, Season
from finance.models import Entry, Payment, Transaction
from members.models import Membership, Person
from ncpc.club.services.season_import import season_import
from ncpc.core.errors import NcpcError
from tests.events.factories import night_make
from tests.ncpc.season_files import season_file

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
HOSTILE = st.sampled_from(
    [
        "",
        "-1",
        "-0.01",
        "0",
        "1e400",
        "99999999999999999999999",
        "NaN",
        "Infinity",
        "12.345",
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "\u202e\u0000x",
        "２０２６-１１-２９",
        "2026-02-30",
        "9999-12-31",
        "😀" * 50,
        "a" * 5000,
    ]
)
VALUE = st.one_of(HOSTILE, st.text(max_size=60), st.integers().map(str), st.decimals(allow_nan=True).map(str))


def _counts(*models) -> tuple[int, ...]:
    return tuple(m.objects.count() for m in models)


def _error_answer(response) -> bool:
    levels = {m.level for m in get_messages(response.wsgi_request)}
    return response.status_code in (200, 400) or bool(levels & {constants.ERROR, constants.WARNING})


def _post(client, url, data):
    response = client.post(url, data)
    assert response.status_code in (200, 302, 400), (
        response.status_code,
        data,
    )  # 400: Django refuses the request
    return response


@FUZZ
@given(data=st.dictionaries(st.sampled_from(["membership", "date", "amount", "method", "reference"]), VALUE))
def test_the_payment_form_refuses_hostile_values_without_writing(client, treasurer, data):
    client.force_login(treasurer)
    before = _counts(Payment, Transaction, Entry)
    response = _post(client, "/finance/payments/", data)
    if _error_answer(response):
        assert _counts(Payment, Transaction, Entry) == before


@FUZZ
@given(
    data=st.dictionaries(
        st.sampled_from(
            [
                "first_name",
                "last_name",
                "key",
                "email",
                "phone",
                "address",
                "date_of_birth",
                "is_professional",
            ]
        ),
        VALUE,
    )
)
def test_the_new_person_form_refuses_hostile_values_without_writing(client, vice_president, data):
    client.force_login(vice_president)
    before = _counts(Person, Membership)
    response = _post(client, "/members/officers/people/new/", data)
    if _error_answer(response):
        assert _counts(Person, Membership) == before


@FUZZ
@given(
    data=st.dictionaries(st.sampled_from(["person", "date", "yes", "no", "votes_yes", "first_event"]), VALUE)
)
def test_the_admission_form_refuses_hostile_values_without_writing(client, vice_president, data):
    client.force_login(vice_president)
    before = _counts(Person, Membership)
    response = _post(client, "/members/officers/admit/", data)
    if _error_answer(response):
        assert _counts(Person, Membership) == before


@FUZZ
@given(data=st.dictionaries(st.text(min_size=1, max_size=30), VALUE, max_size=8))
def test_the_season_rules_form_refuses_hostile_values_without_writing(client, vice_president, season, data):
    client.force_login(vice_president)
    season.refresh_from_db()
    before = (_counts(PayoutRow), season.events_per_season, season.points_table, season.schedule)
    response = _post(client, f"/events/rules/{season.name}/", data)
    season.refresh_from_db()
    if _error_answer(response):
        assert (_counts(PayoutRow), season.events_per_season, season.points_table, season.schedule) == before


@pytest.fixture
def night(season, today, monkeypatch):
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    event, seats = night_make(season=season, players=6)
    return event, seats


@FUZZ
@given(
    players=st.lists(st.one_of(VALUE, st.integers(min_value=-5, max_value=10**6).map(str)), max_size=4),
    chips=st.lists(VALUE, max_size=4),
    version=VALUE,
)
def test_results_entry_refuses_hostile_busts_without_writing(
    client, vice_president, night, players, chips, version
):
    event, seats = night
    client.force_login(vice_president)
    data = {"player": players, "version": version}
    for pk, value in zip(players, chips, strict=False):
        data[f"chips_{pk}"] = value
    before = _counts(Elimination, Attendance)
    response = _post(client, f"/events/{event.season.name}/{event.number}/results/bust/", data)
    if _error_answer(response):
        assert _counts(Elimination, Attendance) == before


SEASON_TABLES = (Season, Event, Person, Membership, Payment, Transaction, Entry, Attendance)


def _mutate(data: dict, path: list, value):
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


def _paths(data, prefix=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield prefix + (key,)
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield prefix + (i,)
            yield from _paths(value, prefix + (i,))


BASE_FILE = season_file(10, events=3)
PATHS = list(_paths(BASE_FILE))


@FUZZ
@given(
    mutations=st.lists(
        st.tuples(
            st.sampled_from(PATHS),
            st.one_of(VALUE, st.none(), st.integers(), st.lists(st.integers(), max_size=2), st.just({})),
        ),
        min_size=1,
        max_size=3,
    )
)
@example(mutations=[(("events", 0, "venue"), [])])  # once a TypeError: a venue that is not text
def test_season_import_refuses_a_mutated_file_with_an_error_and_writes_nothing(today, mutations):
    data = copy.deepcopy(BASE_FILE)
    for path, value in mutations:
        try:
            _mutate(data, list(path), value)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation replaced a container on this path
    before = _counts(*SEASON_TABLES)
    try:
        season = season_import(data=data)
    except NcpcError:
        assert _counts(*SEASON_TABLES) == before
    else:
        from ncpc.club.services.season_import import season_purge

        season_purge(season=season)  # the next example starts from an empty club again
