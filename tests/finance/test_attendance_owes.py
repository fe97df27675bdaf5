import datetime as dt
from decimal import Decimal

import pytest

from finance.selectors import amount_owed
from finance.services.payments import payment_record
from members.services.standing import rules_signature_record

pytestmark = pytest.mark.django_db

DECEMBER_EVENT = dt.date(2026, 12, 12)
JANUARY_EVENT = dt.date(2027, 1, 23)


def test_the_attendance_page_says_what_a_member_owes_at_the_door(client, season, member, president, today):
    # Nobody has paid: by the December event the whole schedule of §2.8 is due, $110 + 4 × $100. Paying it at
    # the door that night avoids the $25 late fee of that day.
    membership = member.person.memberships.get()
    rules_signature_record(membership=membership, signed_on=season.start)
    client.force_login(president)  # the President may enter results and record payments
    html = client.get("/events/2026-27/5/attendance/").content.decode()
    assert "owes <strong>$510.00</strong> by Dec 12" in html
    assert f'href="/finance/payments/?member={membership.pk}"' in html


def test_paying_what_is_owed_at_the_door_makes_the_member_good_to_play(season, member, treasurer):
    from finance.selectors import good_standing

    membership = member.person.memberships.get()
    owed = amount_owed(membership=membership, on=DECEMBER_EVENT)
    assert owed == Decimal("510.00")
    payment_record(membership=membership, date=DECEMBER_EVENT, amount=owed, method="cash", actor=treasurer)
    assert good_standing(membership=membership, on=DECEMBER_EVENT)
    assert amount_owed(membership=membership, on=DECEMBER_EVENT) == Decimal("0.00")


def test_a_late_fee_from_an_earlier_month_is_owed_too(season, member, treasurer):
    membership = member.person.memberships.get()
    # $410 paid in August: $100 is still unpaid on Dec 12, so a $25 late fee that day (§2.10), and another on
    # Jan 12 (the same day of the next month). At the January event (Jan 23): $100 + $25 + $25.
    payment_record(
        membership=membership,
        date=dt.date(2026, 8, 1),
        amount=Decimal("410.00"),
        method="check",
        actor=treasurer,
    )
    assert amount_owed(membership=membership, on=JANUARY_EVENT) == Decimal("150.00")
