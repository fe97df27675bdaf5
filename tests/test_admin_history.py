"""SPEC §16.11 (issue 32): the Django admin cannot rewrite results or money.

Tried as a red team would: a superuser deleting event 4 of the demo club in the admin took its seats, busts and
night with it, cut a member's dues charged from $410 to $310 and changed the closed November report, with no
audit row. Now events, seasons, seats and the records of a night are read-only in the admin (as finance is), and
the database refuses to delete results, nights and answers with their event (``on_delete=PROTECT``); the season
restore (``import_season --replace``) deletes them itself.
"""

import datetime as dt
import io
from decimal import Decimal as D

import pytest
import time_machine
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import ProtectedError
from django.utils import timezone

from events.models import (
    Attendance,
    Elimination,
    Event,
    Night,
    NightChange,
    NightMove,
    NightSeat,
    NightTable,
    Rsvp,
    RsvpReminder,
    Season,
)
from events.services.results import bust_record
from finance.selectors.dues import dues_account
from finance.services.dues import DUES
from members.models import Membership
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

# The day after event 5 (Sat Dec 12, 2026): event 4's results are final (the demo leaves the last night held,
# event 5, running).
AFTER_EVENT_5 = dt.datetime(2026, 12, 13, 17, 0, tzinfo=dt.UTC)
HISTORY = (Event, Attendance, Elimination, Night, NightTable, NightSeat, NightMove, NightChange, Rsvp)


@pytest.fixture
def everyone_eligible(monkeypatch):
    """Seats play without dues or signatures (their own tests cover those): here only results matter."""
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)


@pytest.fixture
def superuser(client):
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "x"))
    return client


def history() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in HISTORY}


def dues_charged(membership: Membership, on: dt.date) -> D:
    """Dues charged to the seat by ``on`` (the founding installments of events 1–5 fall on their dates)."""
    charges = dues_account(membership=membership).charges
    return sum((c.amount for c in charges if c.kind == DUES and c.date <= on), D("0.00"))


def bust(event: Event, attendance: Attendance) -> None:
    event.refresh_from_db()
    bust_record(event=event, attendance_ids=[attendance.pk], version=event.results_version, actor=None)


# --- the red team's case: event 4 of the demo club -----------------------------------------------------------


def test_the_admin_refuses_to_delete_the_demos_event_4_and_nothing_changes(superuser):
    with time_machine.travel(AFTER_EVENT_5, tick=False):
        call_command("load_demo", stdout=io.StringIO())
        event = Event.objects.get(season__name="2026-27", number=4)
        assert event.status == Event.Status.FINAL and event.eliminations.exists()
        seat = Membership.objects.get(attendances__event=event, attendances__place=1)
        assert dues_charged(seat, dt.date(2026, 11, 29)) == D("410.00")
        before = history(), AuditEntry.objects.count(), LogEntry.objects.count()

        refused = superuser.get(f"/admin/events/event/{event.pk}/delete/")
        assert refused.status_code == 403
        assert "Corrections go through the club&#x27;s own pages" in refused.content.decode()
        assert superuser.post(f"/admin/events/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
        changelist = superuser.get("/admin/events/event/")
        assert changelist.status_code == 200 and "delete_selected" not in changelist.content.decode()
        superuser.post(
            "/admin/events/event/",
            {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
        )
        moved = superuser.post(f"/admin/events/event/{event.pk}/change/", {"date": "2026-11-21"})
        assert moved.status_code == 403

        assert (history(), AuditEntry.objects.count(), LogEntry.objects.count()) == before
        event.refresh_from_db()
        assert event.date == dt.date(2026, 11, 14) and event.status == Event.Status.FINAL
        assert dues_charged(seat, dt.date(2026, 11, 29)) == D("410.00")


# --- read-only in the admin ----------------------------------------------------------------------------------


def test_the_change_form_of_a_seat_at_an_event_is_read_only_and_a_post_changes_nothing(
    superuser, season, today, everyone_eligible
):
    event, seats = night_make(season=season, players=3)
    row = seats["a"]
    page = superuser.get(f"/admin/events/attendance/{row.pk}/change/")
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    refused = superuser.post(
        f"/admin/events/attendance/{row.pk}/change/",
        {"event": event.pk, "membership": row.membership_id, "status": "absent", "prize_to": "member"},
    )
    assert refused.status_code == 403
    row.refresh_from_db()
    assert row.status == Attendance.Status.EXPECTED
    assert superuser.post(f"/admin/events/attendance/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Attendance.objects.filter(pk=row.pk).exists()


def test_every_record_of_a_night_is_shown_in_the_admin_and_none_can_be_added_changed_or_deleted(
    superuser, season, today, everyone_eligible
):
    event, seats = night_make(season=season, players=3)
    bust(event, seats["c"])
    records = {
        "attendance": seats["a"],
        "elimination": Elimination.objects.get(event=event),
        "night": Night.objects.get_or_create(event=event)[0],
        "nightmove": NightMove.objects.create(event=event, kind=NightMove.Kind.FINAL),
        "rsvp": Rsvp.objects.create(
            event=event, membership=seats["a"].membership, answer="coming", answered_at=timezone.now()
        ),
        "event": event,
        "season": season,
        "membership": seats["a"].membership,
    }
    before = history()
    for name, record in records.items():
        assert superuser.get(f"/admin/{record._meta.app_label}/{name}/").status_code == 200, name
        change = superuser.get(f"/admin/{record._meta.app_label}/{name}/{record.pk}/change/")
        assert change.status_code == 200 and 'name="_save"' not in change.content.decode(), name
        assert superuser.get(f"/admin/{record._meta.app_label}/{name}/add/").status_code == 403, name
        deleted = superuser.post(
            f"/admin/{record._meta.app_label}/{name}/{record.pk}/delete/", {"post": "yes"}
        )
        assert deleted.status_code == 403, name
    assert history() == before


def test_a_seasons_rules_cannot_be_changed_in_the_admin(superuser, season):
    page = superuser.post(f"/admin/events/season/{season.pk}/change/", {"dues_per_event": "75.00"})
    assert page.status_code == 403
    season.refresh_from_db()
    assert season.dues_per_event == D("50.00")


def test_an_audit_row_cannot_be_added_in_the_admin(superuser):
    assert superuser.get("/admin/ncpc/auditentry/add/").status_code == 403
    assert (
        superuser.post("/admin/ncpc/auditentry/add/", {"action": "x", "summary": "forged"}).status_code == 403
    )
    assert not AuditEntry.objects.filter(summary="forged").exists()


# --- protected in the database ----------------------------------------------------------------------------------


def _night(event):
    return Night.objects.create(event=event)


def _table(event):
    return NightTable.objects.create(event=event, number=1, seat_count=9)


def _offline_change(event):
    return NightChange.objects.create(
        event=event, device="d1", sequence=1, happened_at=timezone.now(), action="bust", status="applied"
    )


def _move(event):
    return NightMove.objects.create(event=event, kind=NightMove.Kind.FINAL)


def _answer(event):
    membership = MembershipFactory(season=event.season)
    return Rsvp.objects.create(
        event=event, membership=membership, answer="coming", answered_at=timezone.now()
    )


@pytest.mark.parametrize("record", [_night, _table, _offline_change, _move, _answer])
def test_an_event_holding_any_record_of_its_night_or_an_answer_cannot_be_deleted(season, today, record):
    event = season.events.get(number=6)
    kept = record(event)
    with pytest.raises(ProtectedError):
        event.delete()
    assert Event.objects.filter(pk=event.pk).exists()
    assert type(kept).objects.filter(pk=kept.pk).exists()


def test_an_event_with_seats_and_busts_cannot_be_deleted_nor_a_seat_with_its_bust(
    season, today, everyone_eligible
):
    event, seats = night_make(season=season, players=3)
    bust(event, seats["c"])
    before = history()
    with pytest.raises(ProtectedError):
        event.delete()
    with pytest.raises(ProtectedError):
        seats["c"].delete()
    assert history() == before


def test_a_seat_with_an_answer_cannot_be_deleted(season, today):
    answer = _answer(season.events.get(number=6))
    with pytest.raises(ProtectedError):
        answer.membership.delete()
    assert Rsvp.objects.filter(pk=answer.pk).exists()


# --- the season restore deletes them itself ----------------------------------------------------------------------


def test_a_season_replaced_from_its_file_drops_its_nights_moves_and_answers_too():
    from ncpc.club.services.season_import import season_import
    from tests.ncpc.season_files import season_file

    season = season_import(data=season_file(10))
    event = season.events.get(number=1)
    first, second = event.attendances.order_by("pk")[:2]
    Night.objects.create(event=event)
    table = NightTable.objects.create(event=event, number=1, seat_count=9)
    NightSeat.objects.create(table=table, attendance=first, seat=1)
    NightMove.objects.create(event=event, attendance=second, from_table=1, from_seat=2, to_table=1, to_seat=3)
    _offline_change(event)
    Rsvp.objects.create(event=event, membership=first.membership, answer="coming", answered_at=timezone.now())
    RsvpReminder.objects.create(
        event=event, membership=second.membership, email="m02@example.org", sent_at=timezone.now()
    )

    replaced = season_import(data=season_file(10), replace=True)

    assert Season.objects.filter(name="2026-27").get() == replaced
    assert Attendance.objects.filter(event__season=replaced).count() == 100  # 10 events × 10 seats
    for model in (Night, NightTable, NightSeat, NightMove, NightChange, Rsvp, RsvpReminder):
        assert model.objects.count() == 0, model.__name__
