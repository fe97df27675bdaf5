"""This round's new pages, attacked as a hurried officer or a hostile member would: the form sent twice, odd
input, the wrong method, the wrong person, two officers at once (PostgreSQL). Each attack ends in a refusal or a
page that says what happened, never a 500, a change made twice or a change without its confirmation.

The clock stands at Nov 29, 2026 (the ``today`` fixture) unless a test says otherwise."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.db import connection  # noqa: F401 - read by the PostgreSQL-only marks
from django.urls import reverse

from events.models import Event, Season
from finance.models import Account, Disbursement, Transaction
from ncpc.core.identity import reference_paren
from ncpc.core.models import AuditEntry, ClubIdentity
from tests.factories import member_user
from tests.finance.factories import opening_balance

pytestmark = pytest.mark.django_db
NOV_29 = dt.date(2026, 11, 29)


def _dates(season):
    return list(season.events.order_by("number").values_list("date", flat=True))


def _weekday_thursday(client, season):
    """The rules page sent back with the day of the week changed to Thursday, as the officer would."""
    from tests.events.test_seasons_47 import _rules_post

    return _rules_post(client, season, schedule_weekday="3", reason="The club now plays Thursdays")


# --- events: the reschedule confirmation -------------------------------------------------------------------


def test_the_reschedule_confirmation_sent_twice_moves_each_event_once(officer_client, season, today):
    Event.objects.filter(season=season, number__lte=4).update(status=Event.Status.FINAL)
    _weekday_thursday(officer_client, season)
    url = "/events/rules/2026-27/reschedule/"
    moves = [m.key for m in officer_client.get(url).context["moves"]]
    assert len(moves) == 6
    first = officer_client.post(url, {"move": moves, "confirm": "on"})
    officer_client.get(first.url)  # its message shown
    after = _dates(season)
    # The same page sent again (double click, or back and resend): nothing moves again, and it says why.
    again = officer_client.post(url, {"move": moves, "confirm": "on"}, follow=True)
    assert first.status_code == 302 and again.status_code == 200
    assert _dates(season) == after
    assert AuditEntry.objects.filter(action="season.reschedule").count() == 1
    assert AuditEntry.objects.filter(action="event.move").count() == 6
    shown = [str(m) for m in again.context["messages"]]
    assert shown == [
        "Nothing was moved again: these events are on their schedule rule's dates already (the confirmation "
        "was sent twice)."
    ]


def test_the_reschedule_of_a_season_that_does_not_exist_is_404(officer_client, season, today):
    assert officer_client.get("/events/rules/1999-00/reschedule/").status_code == 404
    assert officer_client.post("/events/rules/nonsense/reschedule/", {"confirm": "on"}).status_code == 404


def test_a_member_cannot_reschedule(client, member, season, today):
    from tests.events.test_seasons_47 import _rules_post

    vp = member_user(season=season, username="vp2", office="vice_president")
    client.force_login(vp)
    _rules_post(client, season, schedule_weekday="3")
    moves = [m.key for m in client.get("/events/rules/2026-27/reschedule/").context["moves"]]
    before = _dates(season)
    client.force_login(member)  # the rules are any officer's (the permission matrix); a member is refused
    assert (
        client.post("/events/rules/2026-27/reschedule/", {"move": moves, "confirm": "on"}).status_code == 403
    )
    assert client.get("/events/rules/2026-27/reschedule/").status_code == 403
    assert _dates(season) == before


def test_a_schedule_whose_nth_day_a_month_lacks_is_refused_not_a_500(officer_client, season, today):
    """February 2027 has four Saturdays: a '2/5' pair (the fifth Saturday of February) has no date."""
    from tests.events.test_seasons_47 import _rules_post

    schedule = ", ".join(f"{m}/{n}" for m, n in season.schedule)
    bad = schedule.replace("2/2", "2/5", 1)
    assert bad != schedule
    before = (list(Season.objects.get(pk=season.pk).schedule), _dates(season))
    response = _rules_post(officer_client, season, schedule=bad)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "Nothing was saved. Schedule (month/nth day per event): December 2026 has no Saturday number 5."
    ]
    assert response.context["moves"] == []  # what was typed and refused offers no moves
    season.refresh_from_db()
    assert (list(season.schedule), _dates(season)) == before
    # The reschedule page of a season whose rule has no date in some month says so rather than failing.
    assert officer_client.get("/events/rules/2026-27/reschedule/").status_code == 200


# --- events: the new-season form --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"start_year": "2027", "first_month": "13"},
        {"start_year": "2027", "nth": "5"},
        {"start_year": "2027", "nth": "-1"},
        {"start_year": "2027", "weekday": "7"},
        {"start_year": "2027", "weekday": "٣"},
        {"start_year": "", "nth": "4"},
        {"start_year": "99999999999999999999"},
        {"start_year": "2027", "first_month": "9" * 400},
    ],
)
def test_the_new_season_form_refuses_odd_choices_and_creates_nothing(officer_client, season, today, data):
    response = officer_client.post("/events/seasons/new/", data, follow=True)
    assert response.status_code == 200
    assert not Season.objects.exclude(pk=season.pk).exists()
    assert [m.level_tag for m in response.context["messages"]] == ["error"]


def test_the_new_season_form_sent_twice_creates_one_season(officer_client, season, today):
    data = {"start_year": "2027", "first_month": "9", "nth": "4", "weekday": "3"}
    assert officer_client.post("/events/seasons/new/", data).status_code == 302
    again = officer_client.post("/events/seasons/new/", data, follow=True)
    assert Season.objects.filter(name="2027-28").count() == 1
    assert AuditEntry.objects.filter(action="season.create", summary="Created season 2027-28").count() == 1
    assert "Season 2027-28 exists already." in [str(m) for m in again.context["messages"]]


def test_the_new_season_address_takes_no_get_and_no_member(client, member, season, today):
    client.force_login(member)
    assert client.post("/events/seasons/new/", {"start_year": "2027"}).status_code == 403
    assert not Season.objects.filter(name="2027-28").exists()
    client.force_login(member_user(season=season, username="vp3", office="vice_president"))
    assert client.get("/events/seasons/new/").status_code == 405


# --- finance: voiding a check, and the reversal's confirmation ---------------------------------------------


@pytest.fixture
def pending_check(treasurer, president, vice_president, today):
    from tests.finance.test_check_void import casino_check

    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    return casino_check(treasurer, president)


def test_the_void_page_sent_twice_voids_once(client, treasurer, pending_check):
    client.force_login(treasurer)
    url = reverse("finance:check_void", args=[pending_check.pk])
    assert client.post(url, {"reason": "Wrong amount"}).status_code == 302
    again = client.post(url, {"reason": "Another reason"})
    assert again.status_code == 200  # the page says it was voided, with the first reason
    assert "was voided on Nov 29, 2026 by treas: Wrong amount." in again.content.decode()
    pending_check.refresh_from_db()
    assert (pending_check.status, pending_check.void_reason) == (Disbursement.Status.VOID, "Wrong amount")
    assert AuditEntry.objects.filter(action="finance.check.void").count() == 1


@pytest.mark.parametrize("reason", ["", "   ", "x" * 5000])
def test_the_void_page_refuses_an_empty_or_huge_reason(client, treasurer, pending_check, reason):
    client.force_login(treasurer)
    response = client.post(reverse("finance:check_void", args=[pending_check.pk]), {"reason": reason})
    assert response.status_code == 200
    assert response.context["form"].errors.get("reason")
    pending_check.refresh_from_db()
    assert pending_check.status == Disbursement.Status.PENDING


def test_the_void_of_a_check_that_does_not_exist_or_by_a_member_is_refused(client, member, pending_check):
    client.force_login(member)
    url = reverse("finance:check_void", args=[pending_check.pk])
    assert client.post(url, {"reason": "Mine now"}).status_code == 403
    pending_check.refresh_from_db()
    assert pending_check.status == Disbursement.Status.PENDING
    client.force_login(member_user(username="t2", office="treasurer"))
    assert client.post(reverse("finance:check_void", args=[999999]), {"reason": "x"}).status_code == 404


def test_a_reversal_confirmed_below_zero_sent_twice_is_booked_once(client, treasurer, today):
    from tests.finance.test_reversal_warning import move

    opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
    opening_balance(code=Account.CASH, amount="150.00", actor=treasurer)
    deposit = move(treasurer, "2026-11-01", Account.CASH, Account.CHECKING, "150.00", "Cash box to the bank")
    move(treasurer, "2026-11-02", Account.CHECKING, Account.CASH, "200.00", "Cash for the prizes")
    client.force_login(treasurer)
    url = reverse("finance:transaction", args=[deposit.pk])
    data = {"reason": "Counted twice", "confirm_overdraw": "on"}
    assert client.post(url, data).status_code == 302
    again = client.post(url, data, follow=True)
    assert again.status_code == 200
    assert Transaction.objects.filter(reverses=deposit).count() == 1
    from finance.services.ledger import account_balance, account_get

    # $100 + $150 − $200 − $150 (the reversal, once) = −$100.00
    assert account_balance(account=account_get(Account.CHECKING), on=NOV_29) == D("-100.00")


# --- ncpc: the club identity page's two buttons, the season files ------------------------------------------


def test_clearing_every_reference_twice_changes_and_audits_once(client, president, today):
    client.force_login(president)
    data = {"references_all": "blank", "confirmed": "yes"}
    assert client.post("/club/", data, follow=True).status_code == 200
    identity = ClubIdentity.objects.get(pk=1)
    cleared = dict(identity.references)
    assert cleared and set(cleared.values()) == {""}
    again = client.post("/club/", data, follow=True)
    assert ClubIdentity.objects.get(pk=1).references == cleared
    assert AuditEntry.objects.filter(action="club.references").count() == 1
    assert [str(m) for m in again.context["messages"]] == [
        "Nothing changed: every reference to the rule book was cleared already."
    ]


def test_the_bylaws_numbering_button_on_a_club_that_has_it_already_records_nothing(client, president, today):
    client.force_login(president)
    response = client.post("/club/", {"references_all": "bylaws", "confirmed": "yes"}, follow=True)
    assert not AuditEntry.objects.filter(action="club.references").exists()
    assert [str(m) for m in response.context["messages"]] == [
        "Nothing changed: every reference to the rule book follows the bylaws' numbering already."
    ]


def test_the_reference_buttons_need_their_confirmation_and_the_president(client, president, treasurer, today):
    client.force_login(president)
    asked = client.post("/club/", {"references_all": "blank"})
    assert asked.status_code == 200 and asked.context["confirm"] == "blank"
    assert not AuditEntry.objects.filter(action="club.references").exists()
    # An unknown button is the ordinary form, refused for its missing fields: nothing changes.
    odd = client.post("/club/", {"references_all": "everything", "confirmed": "yes"})
    assert odd.status_code == 200 and odd.context["form"].errors
    client.force_login(treasurer)
    assert client.post("/club/", {"references_all": "blank", "confirmed": "yes"}).status_code == 403
    assert not AuditEntry.objects.filter(action="club.references").exists()


@pytest.mark.parametrize("name", ["1999-00", "..%2F..%2Fsettings", "2026-27%00", "２０２６-２７"])
def test_a_season_file_that_does_not_exist_is_404(officer_client, season, today, name):
    assert officer_client.get(f"/season-files/{name}.json").status_code in (400, 404)


def test_season_files_are_for_officers_and_take_no_post(client, member, vice_president, season, today):
    client.force_login(member)
    assert client.get("/season-files/").status_code == 403
    assert client.get("/season-files/2026-27.json").status_code == 403
    client.force_login(vice_president)
    assert client.post("/season-files/2026-27.json").status_code == 405
    response = client.get("/season-files/2026-27.json")
    assert response.status_code == 200 and response.json()["season"]["name"] == "2026-27"


# --- members: dated operations with odd dates --------------------------------------------------------------


@pytest.mark.parametrize("day", ["2026-02-30", "2026-13-01", "", "0000-00-00", "2026-12-05\x00", "9" * 300])
def test_an_admission_or_withdrawal_on_a_date_that_does_not_exist_is_a_form_error(
    client, vice_president, season, today, day
):
    from members.models import Membership
    from tests.factories import MembershipFactory, PersonFactory

    client.force_login(vice_president)
    dan = PersonFactory(first_name="Dan", last_name="Dunn")
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    admit = client.post(
        reverse("members:admit"),
        {
            "person": dan.pk,
            "on": day,
            "sponsor": ann.person.pk,
            "held_on": day,
            "yes": 11,
            "no": 0,
            "abstain": 0,
            "declared_not_professional": "on",
        },
    )
    withdraw = client.post(
        reverse("members:transfers"),
        {"form": "withdraw", "w-membership": ann.pk, "w-on": day, "w-confirm": "on"},
    )
    if "\x00" in day:  # the NUL byte is refused before any view (400)
        assert (admit.status_code, withdraw.status_code) == (400, 400)
    else:
        assert admit.status_code == 200 and admit.context["form"].errors.get("on")
        assert withdraw.status_code == 200 and withdraw.context["withdraw_form"].errors.get("on")
    assert not Membership.objects.filter(person=dan).exists()
    ann.refresh_from_db()
    assert ann.left_after_event is None
    assert not AuditEntry.objects.filter(action__startswith="member").exists()


def test_a_suspension_of_another_seat_or_none_cannot_be_ended(client, vice_president, member, season, today):
    client.force_login(member)
    assert client.post(reverse("members:suspension_end", args=[1]), {"end": "2026-12-01"}).status_code == 403
    client.force_login(vice_president)
    assert (
        client.post(reverse("members:suspension_end", args=[999999]), {"end": "2026-12-01"}).status_code
        == 404
    )


# --- two officers at once (PostgreSQL) ---------------------------------------------------------------------


def _at_once(*commands):
    """Run the commands in threads started together; each one's result or the error it raised."""
    import threading

    from django.db import connections

    barrier = threading.Barrier(len(commands))
    outcomes: list = [None] * len(commands)

    def run(i, command):
        try:
            barrier.wait(10)
            outcomes[i] = command()
        except Exception as exc:  # noqa: BLE001 - what each raised is the outcome looked at
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(commands)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


postgres_only = pytest.mark.skipif(
    "connection.vendor != 'postgresql'", reason="parallel transactions need PostgreSQL"
)


@pytest.mark.django_db(transaction=True)
@postgres_only
def test_two_officers_opening_the_same_new_season_at_once_open_it_once():
    import time_machine

    from members.services.roster import season_open
    from ncpc.core.errors import NcpcError
    from tests.factories import season_make

    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        season = season_make(2026)
        vp = member_user(season=season, username="vp", office="vice_president")
        pres = member_user(season=season, username="pres", office="president")
        outcomes = _at_once(
            lambda: season_open(start_year=2027, actor=vp), lambda: season_open(start_year=2027, actor=pres)
        )
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], NcpcError), outcomes
    assert str(refused[0]) == "Season 2027-28 exists already."
    assert Season.objects.filter(name="2027-28").count() == 1
    assert Event.objects.filter(season__name="2027-28").count() == 10


@pytest.mark.django_db(transaction=True)
@postgres_only
def test_two_officers_confirming_the_same_moves_at_once_move_them_once():
    import time_machine

    from events.services.seasons import events_reschedule, events_reschedule_plan
    from ncpc.core.errors import NcpcError
    from tests.factories import season_make

    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        season = season_make(2026)
        vp = member_user(season=season, username="vp", office="vice_president")
        pres = member_user(season=season, username="pres", office="president")
        Season.objects.filter(pk=season.pk).update(schedule_weekday=3)  # Thursdays from now on
        season.refresh_from_db()
        keys = [m.key for m in events_reschedule_plan(season=season, today=NOV_29) if not m.stays]
        assert len(keys) == 6

        def reschedule(actor):
            return lambda: events_reschedule(season=season, today=NOV_29, expected=keys, actor=actor)

        outcomes = _at_once(reschedule(vp), reschedule(pres))
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], NcpcError), outcomes
    assert str(refused[0]).startswith("Nothing was moved again")
    assert AuditEntry.objects.filter(action="season.reschedule").count() == 1
    assert AuditEntry.objects.filter(action="event.move").count() == 6


# --- ncpc: the spreadsheet import's ticks ------------------------------------------------------------------


def _sheet_upload(client, kind, text, **extra):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(
        "/imports/",
        {
            "kind": kind,
            "season": "2026-27",
            "file": SimpleUploadedFile("s.csv", text.encode(), "text/csv"),
            **extra,
        },
    )


PAYMENTS = "member,date,amount,method,reference\nann,9/1/2026,110.00,cash,\nbob,9/1/2026,50.00,IOU,\n"


@pytest.fixture
def roster(season, treasurer):
    from tests.factories import MembershipFactory

    MembershipFactory(season=season, person__key="ann", person__first_name="Ann", person__last_name="Lee")
    MembershipFactory(season=season, person__key="bob", person__first_name="Bob", person__last_name="Ray")


@pytest.mark.parametrize("lines", [["99"], ["-1"], ["٣"], ["3" * 50], ["", "x"]])
def test_skipping_a_row_that_does_not_exist_skips_nothing_and_books_nothing_twice(
    client, treasurer, season, roster, lines
):
    from finance.models import Payment

    client.force_login(treasurer)
    preview = _sheet_upload(client, "payments", PAYMENTS)
    token = preview.context["upload_token"]
    odd = client.post("/imports/", {"step": "preview", "token": token, "skip": lines, "method:IOU": "cash"})
    assert odd.status_code == 200
    sheet = odd.context["sheet"]
    assert sheet.ok and sheet.to_book == 2 and not any(r.skipped for r in sheet.rows)
    data = {
        "step": "confirm",
        "token": token,
        "previewed": sheet.options.fingerprint,
        "skip": lines,
        "method:IOU": "cash",
    }
    assert client.post("/imports/", data).status_code == 302
    again = client.post("/imports/", data, follow=True)  # the confirmation sent twice
    assert "this file was confirmed already." in [str(m) for m in again.context["messages"]][-1]
    # $110.00 (ann, cash) and $50.00 (bob, the IOU booked as cash), once each.
    assert sorted(Payment.objects.values_list("membership__person__key", "amount")) == [
        ("ann", D("110.00")),
        ("bob", D("50.00")),
    ]


def test_an_unknown_booking_for_a_method_word_is_not_booked(client, treasurer, season, roster):
    from finance.models import Payment

    client.force_login(treasurer)
    preview = _sheet_upload(client, "payments", PAYMENTS)
    token = preview.context["upload_token"]
    odd = client.post("/imports/", {"step": "preview", "token": token, "method:IOU": "bitcoin"})
    assert odd.status_code == 200 and not odd.context["sheet"].ok
    sent = client.post(
        "/imports/",
        {
            "step": "confirm",
            "token": token,
            "previewed": odd.context["sheet"].options.fingerprint,
            "method:IOU": "bitcoin",
        },
        follow=True,
    )
    assert sent.status_code == 200
    assert not Payment.objects.exists()


def test_a_choice_changed_after_the_preview_is_previewed_again_not_imported(client, vice_president, season):
    from members.models import Membership, Person

    Person.objects.create(key="annlee", first_name="Ann", last_name="Lee", email="ann@x.com")
    client.force_login(vice_president)
    preview = _sheet_upload(
        client, "members", "First Name,Last Name,Email\nAnnie,Leigh,Ann@X.com\n", adult="on"
    )
    assert not preview.context["sheet"].ok  # the same e-mail as Ann Lee
    # A hand-made confirmation ticking 'A different person' that the preview never showed ticked.
    sent = client.post(
        "/imports/",
        {
            "step": "confirm",
            "token": preview.context["upload_token"],
            "previewed": preview.context["sheet"].options.fingerprint,
            "adult": "1",
            "different": "2",
        },
    )
    assert sent.status_code == 200 and sent.context["sheet"].ok  # shown again with the tick, to confirm
    assert not Membership.objects.filter(season=season, person__first_name="Annie").exists()


def test_the_21_or_over_tick_does_not_admit_a_row_whose_date_of_birth_says_younger(
    client, vice_president, season
):
    from members.models import Membership

    client.force_login(vice_president)
    text = "First Name,Last Name,Email,Date of Birth\nKid,Young,kid@x.com,2010-05-01\n"
    preview = _sheet_upload(client, "members", text, adult="on")
    row = preview.context["sheet"].rows[0]
    assert row.errors or row.refused
    assert not preview.context["sheet"].ok
    assert not Membership.objects.filter(person__first_name="Kid").exists()


def test_the_imports_are_not_a_members_and_not_payments_for_the_vice_president(
    client, member, vice_president, season, roster
):
    from finance.models import Payment

    client.force_login(member)
    assert _sheet_upload(client, "payments", PAYMENTS).status_code == 403
    client.force_login(vice_president)
    response = _sheet_upload(client, "payments", PAYMENTS)
    assert response.status_code == 200 and response.context["form"].errors.get("kind")
    assert not Payment.objects.exists()


# --- the wrong method, no CSRF token ------------------------------------------------------------------------


def test_a_get_with_the_buttons_query_changes_nothing(client, president, today):
    client.force_login(president)
    before = list(ClubIdentity.objects.values_list("references", flat=True))
    response = client.get("/club/", {"references_all": "blank", "confirmed": "yes"})
    assert response.status_code == 200
    assert list(ClubIdentity.objects.values_list("references", flat=True)) == before
    assert reference_paren("2.12") == " (§2.12)"  # still the bylaws' numbering
    assert not AuditEntry.objects.filter(action="club.references").exists()


def test_posts_without_the_csrf_token_are_refused(treasurer, president, pending_check, season):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(treasurer)
    void = browser.post(reverse("finance:check_void", args=[pending_check.pk]), {"reason": "Wrong amount"})
    assert void.status_code == 403
    pending_check.refresh_from_db()
    assert pending_check.status == Disbursement.Status.PENDING
    browser.force_login(president)
    assert browser.post("/club/", {"references_all": "blank", "confirmed": "yes"}).status_code == 403
    assert browser.post("/events/rules/2026-27/reschedule/", {"confirm": "on"}).status_code == 403
    assert browser.post("/events/seasons/new/", {"start_year": "2027"}).status_code == 403
    assert not AuditEntry.objects.filter(action__in=["club.references", "finance.check.void"]).exists()
    assert not Season.objects.filter(name="2027-28").exists()


# --- members: the forms sent twice, another season's seat ---------------------------------------------------


def test_a_withdrawal_sent_twice_withdraws_once_and_another_seasons_seat_is_refused(
    client, vice_president, season, today
):
    from tests.factories import MembershipFactory, season_make

    client.force_login(vice_president)
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    older = MembershipFactory(season=season_make(2025), person__first_name="Old", person__last_name="Timer")
    data = {"form": "withdraw", "w-membership": ann.pk, "w-on": "2026-11-29", "w-confirm": "on"}
    assert client.post(reverse("members:transfers"), data).status_code == 302
    again = client.post(reverse("members:transfers"), data)
    assert again.status_code == 200 and again.context["withdraw_form"].errors
    ann.refresh_from_db()
    # Event 4 was played on Nov 14 and event 5 is on Dec 12: she leaves after event 4.
    assert ann.left_after_event == 4
    assert AuditEntry.objects.filter(target_id=ann.pk, action__contains="withdr").count() == 1
    other = client.post(
        reverse("members:transfers"),
        {"form": "withdraw", "w-membership": older.pk, "w-on": "2026-11-29", "w-confirm": "on"},
    )
    assert other.status_code == 200 and other.context["withdraw_form"].errors.get("membership")
    older.refresh_from_db()
    assert older.left_after_event is None


@pytest.mark.django_db(transaction=True)
@postgres_only
def test_the_treasurer_and_the_president_reversing_the_same_deposit_at_once_reverse_it_once():
    import time_machine

    from finance.services.ledger import AlreadyReversed, account_balance, account_get, transaction_reverse
    from tests.factories import season_make
    from tests.finance.test_reversal_warning import move

    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        season = season_make(2026)
        treasurer = member_user(season=season, username="treas", office="treasurer")
        president = member_user(season=season, username="pres", office="president")
        opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
        opening_balance(code=Account.CASH, amount="150.00", actor=treasurer)
        deposit = move(
            treasurer, "2026-11-01", Account.CASH, Account.CHECKING, "150.00", "Cash box to the bank"
        )
        move(treasurer, "2026-11-02", Account.CHECKING, Account.CASH, "200.00", "Cash for the prizes")

        def reverse_as(actor):
            return lambda: transaction_reverse(
                txn=deposit, date=NOV_29, reason="Counted twice", actor=actor, overdraw_confirmed=True
            )

        outcomes = _at_once(reverse_as(treasurer), reverse_as(president))
        refused = [o for o in outcomes if isinstance(o, Exception)]
        assert len(refused) == 1 and isinstance(refused[0], AlreadyReversed), outcomes
        assert str(refused[0]) == f"Transaction #{deposit.pk} was reversed already."
        assert Transaction.objects.filter(reverses=deposit).count() == 1
        # $100 + $150 − $200 − $150 (reversed once) = −$100.00
        assert account_balance(account=account_get(Account.CHECKING), on=NOV_29) == D("-100.00")


# --- events: the scaled tables offered for new dues ---------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"dues_per_event": "0"},
        {"dues_per_event": "0.01"},
        {"dues_per_event": "99999999"},
        {"dues_per_event": "-10"},
        {"admin_fee": "0"},
        {"events_per_season": "1"},
        {"events_per_season": "0"},
        {"events_per_season": "40"},
        {"wsop_entry": "0", "wsop_expenses": "0"},
    ],
)
def test_odd_dues_are_refused_or_offered_tables_never_a_500(officer_client, season, today, changes):
    from events.selectors import season_rules
    from ncpc.core.middleware import request_memo_forget
    from tests.events.test_seasons_47 import _rules_post

    before = season_rules(season)
    response = _rules_post(officer_client, season, **changes)
    assert response.status_code in (200, 302)
    if response.status_code == 200:  # refused, or the tables offered: nothing saved yet
        request_memo_forget()
        season.refresh_from_db()
        assert season_rules(season) == before


# --- members: a suspension recorded or ended early, sent twice ---------------------------------------------


def test_a_suspension_sent_twice_is_recorded_once_and_ended_early_once(client, vice_president, season, today):
    from members.models import Suspension
    from tests.factories import MembershipFactory

    client.force_login(vice_president)
    cal = MembershipFactory(season=season, person__first_name="Cal", person__last_name="Cole")
    data = {"membership": cal.pk, "start": "2026-11-29", "end": "2026-12-31", "reason": "Abuse at the table"}
    assert client.post(reverse("members:suspensions"), data).status_code == 302
    again = client.post(reverse("members:suspensions"), data)
    assert again.status_code == 200
    assert again.context["form"].errors == {
        "start": [
            "Cal Cole is suspended already from Nov 29, 2026 to Dec 31, 2026: nothing was recorded. To suspend "
            "them longer, record a suspension starting the day after it ends."
        ]
    }
    assert Suspension.objects.filter(membership=cal).count() == 1
    suspension = Suspension.objects.get(membership=cal)
    url = reverse("members:suspension_end", args=[suspension.pk])
    end = {"last_day": "2026-12-10", "reason": "Apologised"}
    assert client.post(url, end).status_code == 302
    client.post(url, end)  # the back button, sent again
    suspension.refresh_from_db()
    assert suspension.end == dt.date(2026, 12, 10)
    ended = AuditEntry.objects.filter(target_id=str(suspension.pk), action__startswith="member.suspen")
    assert ended.count() == 2, list(ended.values_list("action", "summary"))  # recorded once, ended early once
    odd = client.post(url, {"last_day": "2026-02-30", "reason": "x"}, follow=True)
    assert [str(m) for m in odd.context["messages"]][-1] == (
        "Nothing was changed: give the new last day and the reason."
    )
    suspension.refresh_from_db()
    assert suspension.end == dt.date(2026, 12, 10)


def test_an_admission_sent_twice_seats_the_member_once(client, vice_president, season, today):
    from members.models import Membership
    from members.selectors import current_member_count
    from tests.factories import MembershipFactory, PersonFactory

    client.force_login(vice_president)
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    dan = PersonFactory(first_name="Dan", last_name="Dunn")
    members = current_member_count(season=season)
    data = {
        "person": dan.pk,
        "on": "2026-11-29",
        "sponsor": ann.person.pk,
        "held_on": "2026-11-29",
        "yes": members,
        "no": 0,
        "abstain": 0,
        "declared_not_professional": "on",
    }
    assert client.post(reverse("members:admit"), data).status_code == 302
    again = client.post(reverse("members:admit"), data)
    assert again.status_code == 200
    assert again.context["form"].errors
    assert Membership.objects.filter(person=dan, season=season).count() == 1
    assert current_member_count(season=season) == members + 1


@pytest.mark.parametrize(
    "keys", [["5:x:y"], ["x" * 5000], ["9" * 5000 + ":2026-12-12:2026-12-10"], [], ["5"] * 500]
)
def test_reschedule_keys_made_up_move_nothing(officer_client, season, today, keys):
    _weekday_thursday(officer_client, season)
    before = _dates(season)
    response = officer_client.post(
        "/events/rules/2026-27/reschedule/", {"move": keys, "confirm": "on"}, follow=True
    )
    assert response.status_code == 200
    assert _dates(season) == before
    assert [m.level_tag for m in response.context["messages"]][-1] in ("warning", "error")
    assert not AuditEntry.objects.filter(action="season.reschedule").exists()


# --- finance: the payment's reversal page asks for the below-zero tick too ----------------------------------

PAYMENT_WARNING = (
    "Club checking holds $50.00 on Nov 29, 2026; reversing #{pk} takes $150.00 out of it, so it would go below "
    "zero, to −$100.00."
)


def _bounced_check_books(treasurer, season):
    """Checking opens with $100.00; a member's $150.00 check is deposited Nov 1; $200.00 goes to the cash box
    Nov 2: $50.00 left. Reversing the payment takes its $150.00 out of checking: $50.00 − $150.00 = −$100.00."""
    from tests.finance.factories import pay, seat
    from tests.finance.test_reversal_warning import move

    opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
    payment = pay(membership=seat(season=season), day="2026-11-01", amount="150.00", method="check")
    return payment, lambda: move(
        treasurer, "2026-11-02", Account.CHECKING, Account.CASH, "200.00", "Cash for the prizes"
    )


def _checking():
    from finance.services.ledger import account_balance, account_get

    return account_balance(account=account_get(Account.CHECKING), on=NOV_29)


def test_the_payment_reversal_below_zero_is_booked_only_once_ticked(client, treasurer, season, today):
    payment, prizes = _bounced_check_books(treasurer, season)
    prizes()
    client.force_login(treasurer)
    url = reverse("finance:payment_reverse", args=[payment.pk])
    unticked = client.post(url, {"reason": "The check bounced"})
    assert unticked.status_code == 200
    assert unticked.context["form"].errors["confirm_overdraw"] == [
        "Tick the box to reverse it although the account goes below zero."
    ]
    assert not Transaction.objects.filter(reverses=payment.transaction).exists()
    assert _checking() == D("50.00")
    ticked = client.post(url, {"reason": "The check bounced", "confirm_overdraw": "on"})
    assert ticked.status_code == 302
    assert Transaction.objects.filter(reverses=payment.transaction).count() == 1
    assert _checking() == D("-100.00")
    client.post(url, {"reason": "The check bounced", "confirm_overdraw": "on"})  # sent twice
    assert Transaction.objects.filter(reverses=payment.transaction).count() == 1


def test_money_that_left_after_the_payment_reversal_page_was_shown_is_warned_of(
    client, treasurer, season, today
):
    payment, prizes = _bounced_check_books(treasurer, season)
    client.force_login(treasurer)
    url = reverse("finance:payment_reverse", args=[payment.pk])
    assert "below zero" not in client.get(url).content.decode()  # $250.00 in checking: nothing to say
    prizes()
    response = client.post(url, {"reason": "The check bounced"})
    assert response.status_code == 200
    assert PAYMENT_WARNING.format(pk=payment.transaction_id) in response.content.decode()
    assert response.context["form"].errors["confirm_overdraw"] == [
        "Tick the box to reverse it although the account goes below zero."
    ]
    assert not Transaction.objects.filter(reverses=payment.transaction).exists()
    assert _checking() == D("50.00")


def test_a_choice_the_new_season_form_does_not_offer_is_named_in_the_refusal(officer_client, season, today):
    response = officer_client.post("/events/seasons/new/", {"start_year": "2027", "nth": "5"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Nothing was created: Events on: Select a valid choice. 5 is not one of the available choices."
    ]
    response = officer_client.post("/events/seasons/new/", {"start_year": "", "nth": "4"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Enter the year the season starts, like 2027."]
    assert not Season.objects.filter(name="2027-28").exists()


@pytest.mark.django_db(transaction=True)
@postgres_only
def test_two_presses_of_clear_every_reference_at_once_clear_and_record_once():
    import time_machine

    from ncpc.core.identity import REFERENCES, club_references_reset
    from tests.factories import season_make

    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        season = season_make(2026)
        president = member_user(season=season, username="pres", office="president")
        outcomes = _at_once(*[lambda: club_references_reset(blank=True, actor=president)] * 2)
    assert sorted(len(o) for o in outcomes) == [0, len(REFERENCES)], outcomes  # one cleared them all
    assert ClubIdentity.objects.get(pk=1).references == dict.fromkeys(REFERENCES, "")
    assert AuditEntry.objects.filter(action="club.references").count() == 1
