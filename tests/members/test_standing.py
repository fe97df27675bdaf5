import datetime as dt

import pytest

from members.selectors import rules_signed, suspended_on, unsigned_before_next_event
from members.services.standing import rules_signature_record, suspension_create, suspension_end
from ncpc.core.errors import NcpcError
from tests.members.factories import seats_fill


@pytest.fixture
def seat(db, season, today):
    return seats_fill(season=season, count=1)[0]


def test_a_member_has_not_signed_until_the_vice_president_records_it(season, seat, today):
    assert not rules_signed(membership=seat)
    rules_signature_record(membership=seat, signed_on=dt.date(2026, 8, 20))
    assert rules_signed(membership=seat)


def test_a_signature_is_recorded_once_a_season(season, seat):
    rules_signature_record(membership=seat, signed_on=dt.date(2026, 8, 20))
    with pytest.raises(NcpcError, match="signed the rules of 2026-27 already"):
        rules_signature_record(membership=seat, signed_on=dt.date(2026, 8, 21))


def test_the_checklist_names_who_must_sign_before_the_next_event(season, seat, today):
    other = seats_fill(season=season, count=1)[0]
    rules_signature_record(membership=other, signed_on=dt.date(2026, 8, 20))
    number, unsigned = unsigned_before_next_event(season=season, on=today)
    assert number == 5
    assert unsigned == [seat]


def test_a_suspension_covers_its_first_and_last_day_only(season, seat):
    suspension_create(membership=seat, start=dt.date(2026, 9, 1), end=dt.date(2026, 9, 20), reason="abuse")
    assert not suspended_on(membership=seat, on=dt.date(2026, 8, 31))
    assert suspended_on(membership=seat, on=dt.date(2026, 9, 1))
    assert suspended_on(membership=seat, on=dt.date(2026, 9, 20))
    assert not suspended_on(membership=seat, on=dt.date(2026, 9, 21))


def test_a_suspension_cannot_end_before_it_starts(season, seat):
    with pytest.raises(NcpcError):
        suspension_create(membership=seat, start=dt.date(2026, 9, 2), end=dt.date(2026, 9, 1), reason="x")


def test_a_suspension_lifted_early_no_longer_covers_the_days_after(season, seat, president):
    from ncpc.core.models import AuditEntry

    suspension = suspension_create(
        membership=seat, start=dt.date(2026, 11, 20), end=dt.date(2026, 12, 31), reason="abuse"
    )
    suspension_end(
        suspension=suspension, last_day=dt.date(2026, 11, 28), reason="Lifted by vote", actor=president
    )
    assert suspended_on(membership=seat, on=dt.date(2026, 11, 28))
    assert not suspended_on(membership=seat, on=dt.date(2026, 11, 29))
    assert not suspended_on(membership=seat, on=dt.date(2026, 12, 12))  # free to play at the December event
    entry = AuditEntry.objects.get(action="member.suspension_end")
    assert entry.reason == "Lifted by vote"
    assert entry.data == {"end_before": "2026-12-31", "end_after": "2026-11-28"}


@pytest.mark.parametrize(
    ("last_day", "reason", "message"),
    [
        (dt.date(2026, 11, 19), "x", "cannot be before the suspension starts"),
        (dt.date(2026, 12, 31), "x", "already ends on Dec 31, 2026"),
        (dt.date(2027, 1, 5), "x", "already ends on"),  # ending early never lengthens it
        (dt.date(2026, 11, 28), "  ", "Give the reason"),
    ],
)
def test_ending_a_suspension_early_refuses_what_is_not_early(
    season, seat, president, last_day, reason, message
):
    suspension = suspension_create(
        membership=seat, start=dt.date(2026, 11, 20), end=dt.date(2026, 12, 31), reason="abuse"
    )
    with pytest.raises(NcpcError, match=message):
        suspension_end(suspension=suspension, last_day=last_day, reason=reason, actor=president)
    suspension.refresh_from_db()
    assert suspension.end == dt.date(2026, 12, 31)


def test_an_officer_ends_a_suspension_early_from_the_suspensions_page(client, season, seat, vice_president):
    suspension = suspension_create(
        membership=seat, start=dt.date(2026, 11, 20), end=dt.date(2026, 12, 31), reason="abuse"
    )
    client.force_login(vice_president)
    page = client.get("/members/officers/suspensions/").content.decode()
    assert f'action="/members/officers/suspensions/{suspension.pk}/end/"' in page
    assert 'value="2026-11-28"' in page  # lifted from today (Nov 29) on by default
    response = client.post(
        f"/members/officers/suspensions/{suspension.pk}/end/",
        {"last_day": "2026-11-28", "reason": "Lifted by vote"},
        follow=True,
    )
    suspension.refresh_from_db()
    assert suspension.end == dt.date(2026, 11, 28)
    assert "now ends on Nov 28, 2026" in response.content.decode()


def test_a_signature_recorded_by_mistake_is_withdrawn_with_a_reason(client, season, seat, vice_president):
    from ncpc.core.models import AuditEntry

    signature = rules_signature_record(membership=seat, signed_on=dt.date(2026, 8, 20))
    client.force_login(vice_president)
    page = client.get("/members/officers/signatures/").content.decode()
    assert f'action="/members/officers/signatures/{signature.pk}/withdraw/"' in page
    client.post(f"/members/officers/signatures/{signature.pk}/withdraw/", {"reason": "  "})
    assert rules_signed(membership=seat)  # no reason, nothing withdrawn
    response = client.post(
        f"/members/officers/signatures/{signature.pk}/withdraw/",
        {"reason": "Recorded on the wrong member"},
        follow=True,
    )
    assert not rules_signed(membership=seat)
    assert "is unsigned again" in response.content.decode()
    entry = AuditEntry.objects.get(action="member.rules_signature_withdrawn")
    assert entry.data == {"signed_on": "2026-08-20"}
    # The member can sign again afterwards.
    rules_signature_record(membership=seat, signed_on=dt.date(2026, 11, 29))
    assert rules_signed(membership=seat)
