import datetime as dt

import pytest

from members.selectors import rules_signed, suspended_on, unsigned_before_next_event
from members.services.standing import rules_signature_record, suspension_create
from ncpc.errors import NcpcError
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
