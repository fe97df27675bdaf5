"""Issue 15, item 13 (SPEC §12: "never a 500"): every odd input the review found answers with a clear refusal
— a form error, a message, 400 or 404 — and writes nothing. One case per finding, on SQLite and PostgreSQL
(``DATABASE_URL=postgres://… pytest tests/test_odd_input.py``): some only failed on PostgreSQL (a NUL
character in a query). Then the values that were accepted but wrong: dates of birth in 2100 and in year 1,
a member limit below the seats held, tables of no seats, shares over 100%, two holders of one office."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.messages import constants, get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from events.models import Elimination
from events.services.rules_edit import season_rules_save
from finance.models import Payment
from members.models import (
    BallotParticipation,
    Membership,
    OfficerTerm,
    Person,
    RuleChange,
)
from members.services.ballots import ballot_open, rule_change_submit
from members.services.elections import election_create, nomination_record
from ncpc.core.errors import RulesError
from tests.events.factories import night_make
from tests.factories import UserFactory
from tests.members.factories import seats_fill

pytestmark = pytest.mark.django_db

MARCH, APRIL = dt.date(2027, 3, 27), dt.date(2027, 4, 24)
REFUSED = (200, 302, 400, 404)  # a page with the error, a redirect with a message, or the request refused


@pytest.fixture
def club(season, member, president, vice_president, treasurer, today):
    """A season with an open election, a suggestion waiting for review, and people in every office."""
    others = [m.person for m in seats_fill(season=season, count=3)]
    election = election_create(season=season, on=MARCH)
    for office in ("president", "vice_president", "treasurer"):
        nomination_record(ballot=election, office=office, person=others[0], on=MARCH)
    ballot_open(ballot=election, on=APRIL)
    change = rule_change_submit(season=season, person=others[1], suggestion="Four substitutes", on=today)
    return {
        "season": season,
        "election": election,
        "question": election.questions.get(office="president"),
        "change": change,
        "users": {"member": member, "president": president, "vice_president": vice_president},
        "treasurer": treasurer,
    }


def _client(user) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def _csv(kind: str, text: str) -> dict:
    return {
        "kind": kind,
        "season": "2026-27",
        "file": SimpleUploadedFile("sheet.csv", text.encode(), "text/csv"),
    }


def _refused(response) -> bool:
    """A refusal the user can read: 400/404, or a page or redirect carrying an error message or form error."""
    if response.status_code in (400, 404):
        return True
    levels = {m.level for m in get_messages(response.wsgi_request)}
    if levels & {constants.ERROR, constants.WARNING}:
        return True
    form = (response.context or {}).get("form") if hasattr(response, "context") else None
    sheet = (response.context or {}).get("sheet") if hasattr(response, "context") else None
    return bool(form is not None and form.errors) or bool(sheet is not None and not sheet.ok)


# --- Item 13: each 500 of the review, one by one ------------------------------------------------------


def test_item_13_points_report_of_year_0_is_404(club):
    response = _client(club["users"]["member"]).get("/standings/2026-27/report/0/1/")
    assert response.status_code == 404


def test_item_13_points_report_of_year_99999_is_404(club):
    response = _client(club["users"]["member"]).get("/standings/2026-27/report/99999/1/")
    assert response.status_code == 404


def test_item_13_season_report_api_with_a_nul_in_the_season_is_400(club):
    response = _client(club["users"]["member"]).get("/api/v1/seasons/%00/report")
    assert response.status_code == 400


def test_item_13_a_ballot_vote_of_a_superscript_digit_is_refused_and_counts_nothing(club):
    response = _client(club["users"]["member"]).post(
        f"/members/votes/ballots/{club['election'].pk}/vote/",
        {f"q{club['question'].pk}": "²", "confirm": "1"},
    )
    assert response.status_code in REFUSED and _refused(response)
    assert not BallotParticipation.objects.exists()


def test_item_13_a_login_with_a_10000_character_username_is_a_form_error(club):
    response = _client(None).post("/accounts/login/", {"username": "u" * 10_000, "password": "x"})
    assert response.status_code == 200 and response.context["form"].errors


def test_item_13_a_tie_break_group_of_a_superscript_digit_is_refused(club):
    response = _client(club["users"]["vice_president"]).post("/standings/2026-27/tie-breaks/", {"group": "²"})
    assert response.status_code == 302 and _refused(response)


CSV_CASES = {
    "first_event_superscript": (
        "members",
        "key,first_name,last_name,date_of_birth,first_event\nzed,Zed,Ray,1980-01-01,²\n",
        "first_event",
    ),
    "cell_over_the_csv_field_limit": (
        "members",
        "key,first_name,last_name,date_of_birth\nzed,Zed," + "R" * 131_073 + ",1980-01-01\n",
        "not a CSV table",
    ),
    "last_name_over_60": (
        "members",
        "key,first_name,last_name,date_of_birth\nzed,Zed," + "R" * 61 + ",1980-01-01\n",
        "last_name is longer than 60",
    ),
    "reference_over_80": (
        "payments",
        "member,date,amount,method,reference\nmember1,2026-08-20,110.00,check," + "9" * 81 + "\n",
        "reference is longer than 80",
    ),
    "amount_beyond_the_money_column": (
        "payments",
        "member,date,amount,method\nmember1,2026-08-20,99999999999999.99,check\n",
        "amount must be less than",
    ),
}


@pytest.mark.parametrize("case", CSV_CASES, ids=list(CSV_CASES))
def test_item_13_a_spreadsheet_row_the_database_cannot_hold_is_refused_at_preview_and_confirm(club, case):
    kind, text, message = CSV_CASES[case]
    client = _client(club["users"]["president"])  # the President imports members and payments
    preview = client.post("/imports/", _csv(kind, text))
    assert preview.status_code == 200
    assert message in preview.content.decode()
    before = (Person.objects.count(), Payment.objects.count())
    confirm = client.post("/imports/", {"step": "confirm"})
    assert confirm.status_code == 302
    assert (Person.objects.count(), Payment.objects.count()) == before


def test_item_13_a_rule_change_with_a_wsop_row_of_superscripts_is_a_form_error(club):
    response = _client(club["users"]["president"]).post(
        f"/members/votes/rule-changes/{club['change'].pk}/accept/",
        {"title": "More prizes", "rule_field": "wsop_row", "new_value": "¹-²: ³"},
    )
    assert response.status_code == 200 and response.context["form"].errors
    club["change"].refresh_from_db()
    assert club["change"].status == RuleChange.Status.SUBMITTED


def test_item_13_a_decline_reason_over_300_characters_is_refused(club):
    response = _client(club["users"]["president"]).post(
        f"/members/votes/rule-changes/{club['change'].pk}/decline/", {"reason": "x" * 301}
    )
    assert response.status_code == 302 and _refused(response)
    club["change"].refresh_from_db()
    assert club["change"].status == RuleChange.Status.SUBMITTED


NUL_POSTS = {
    "rule_change_decline": lambda c: (f"/members/votes/rule-changes/{c['change'].pk}/decline/", "president"),
    "results_reopen": lambda c: ("/events/2026-27/4/results/reopen/", "vice_president"),
    "results_abuse": lambda c: ("/events/2026-27/4/results/abuse/", "vice_president"),
    "rules_edit": lambda c: ("/events/rules/2026-27/", "vice_president"),
}


@pytest.mark.parametrize("case", NUL_POSTS, ids=list(NUL_POSTS))
def test_item_13_a_nul_character_in_a_reason_read_from_the_post_is_400(club, case):
    url, role = NUL_POSTS[case](club)
    response = _client(club["users"][role]).post(url, {"reason": "typed\x00in", "player": "1"})
    assert response.status_code == 400
    club["change"].refresh_from_db()
    assert club["change"].status == RuleChange.Status.SUBMITTED


def test_item_13_a_ruling_form_for_event_abc_is_400(club):
    response = _client(club["users"]["president"]).get("/members/disputes/new/?event=abc")
    assert response.status_code == 400


@pytest.mark.parametrize("url", ["/members/officers/admit/?person=%00", "/audit/?action=%00"])
def test_item_13_a_nul_in_a_query_parameter_is_400(club, url):
    assert _client(club["users"]["vice_president"]).get(url).status_code == 400


def test_item_13_bust_chips_beyond_all_chips_in_play_are_refused_and_nothing_is_entered(
    season, vice_president, today, monkeypatch
):
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    event, seats = night_make(season=season, players=4)
    a, b = seats["a"], seats["b"]
    response = _client(vice_president).post(
        f"/events/{season.name}/{event.number}/results/bust/",
        {
            "player": [a.pk, b.pk],
            f"chips_{a.pk}": "99,999,999,999",
            f"chips_{b.pk}": "5,000",
            "version": event.results_version,
        },
    )
    assert response.status_code == 302 and _refused(response)
    assert not Elimination.objects.exists()
    assert "more than all the chips in play" in str(list(get_messages(response.wsgi_request)))


# --- Item 13: accepted but wrong ----------------------------------------------------------------------


@pytest.mark.parametrize("born", ["2100-01-01", "0001-01-01"])
def test_item_13_a_date_of_birth_in_2100_or_in_year_1_is_a_form_error(club, born):
    response = _client(club["users"]["vice_president"]).post(
        "/members/officers/people/new/",
        {"first_name": "Zed", "last_name": "Ray", "key": "zed", "date_of_birth": born},
    )
    assert response.status_code == 200
    assert "date_of_birth" in response.context["form"].errors
    assert not Person.objects.filter(key="zed").exists()


@pytest.mark.parametrize("born", ["2100-01-01", "0001-01-01"])
def test_item_13_a_spreadsheet_date_of_birth_in_2100_or_in_year_1_is_refused(club, born):
    client = _client(club["users"]["vice_president"])
    preview = client.post(
        "/imports/", _csv("members", f"key,first_name,last_name,date_of_birth\nzed,Zed,Ray,{born}\n")
    )
    assert f"The date of birth {born}" in preview.content.decode()


def test_item_13_the_member_limit_cannot_fall_below_the_seats_held(season, vice_president, today):
    seats_fill(season=season, count=17 - Membership.objects.filter(season=season).count())
    for limit in (0, 16):
        with pytest.raises(RulesError, match="below the 17 seat"):
            season_rules_save(
                season=season, changes={"max_members": limit}, actor=vice_president, reason="club vote"
            )
    season.refresh_from_db()
    assert season.max_members == 20
    assert season_rules_save(
        season=season, changes={"max_members": 17}, actor=vice_president, reason="club vote"
    ) == ["max_members"]


@pytest.mark.parametrize("name", ["table_size", "final_table_size"])
def test_item_13_a_table_of_no_seats_is_refused(season, vice_president, name):
    with pytest.raises(RulesError, match="seats at least 2"):
        season_rules_save(season=season, changes={name: 0}, actor=vice_president, reason="club vote")


def test_item_13_a_representative_share_of_999_99_percent_is_refused(season, vice_president):
    with pytest.raises(RulesError, match="percentage from 0 to 100"):
        season_rules_save(
            season=season,
            changes={"representative_share_pct": Decimal("999.99")},
            actor=vice_president,
            reason="club vote",
        )
    season.refresh_from_db()
    assert season.representative_share_pct == Decimal("60.00")


def test_item_13_the_admin_refuses_a_second_holder_of_an_office_at_once(club):
    admin = _client(UserFactory(username="root", is_superuser=True, is_staff=True))
    holder = OfficerTerm.objects.get(office="president")
    other = Person.objects.exclude(pk=holder.person_id).first()
    before = OfficerTerm.objects.count()
    response = admin.post(
        "/admin/members/officerterm/add/",
        {"person": other.pk, "office": "president", "start": holder.start, "end": holder.end},
    )
    assert response.status_code == 200 and response.context["adminform"].form.errors
    assert OfficerTerm.objects.count() == before
    edit = admin.post(
        f"/admin/members/officerterm/{holder.pk}/change/",
        {"person": holder.person_id, "office": "president", "start": holder.start, "end": holder.end},
    )
    assert edit.status_code == 302  # the holder's own term is not a clash with itself


# --- Hostile values in the style of test_fuzz.py ------------------------------------------------------

ODD = st.one_of(
    st.sampled_from(["²", "¹-²: ³", "٣", "\x00", "a\x00", "abc", "-1", "0", "9" * 30, "1e400", "😀"]),
    st.text(max_size=20),
)
FUZZ = settings(
    max_examples=20, deadline=None, suppress_health_check=list(__import__("hypothesis").HealthCheck)
)


@FUZZ
@given(value=ODD)
def test_item_13_odd_query_values_never_give_a_500(club, value):
    client = _client(club["users"]["president"])
    for url, name in (
        ("/members/disputes/new/", "event"),
        ("/members/officers/admit/", "person"),
        ("/audit/", "action"),
        ("/finance/payments/", "member"),
    ):
        response = client.get(url, {name: value})
        assert response.status_code in (200, 400, 404), (url, value, response.status_code)


@FUZZ
@given(value=ODD)
def test_item_13_odd_posted_choices_never_give_a_500_and_write_nothing(club, value):
    member = _client(club["users"]["member"])
    response = member.post(
        f"/members/votes/ballots/{club['election'].pk}/vote/",
        {f"q{club['question'].pk}": value, "confirm": "1"},
    )
    assert response.status_code in REFUSED
    vp = _client(club["users"]["vice_president"])
    assert vp.post("/standings/2026-27/tie-breaks/", {"group": value}).status_code in REFUSED
    if value not in [str(n.pk) for n in club["question"].nominations.all()]:
        assert not BallotParticipation.objects.exists()
    assert Membership.objects.filter(season=club["season"]).count() == 7
