"""Small finance polish: a void reaches the officers asked to approve at their address now; the money field's
refusal names the limit that applies; the reconciliation page opens only for the months statements cover.

Voids: the clock stands at Nov 29, 2026; club checking holds $6,000.00. Ned Stark (Treasurer, treas@…) writes
check #1001 to the Casino for $5,000.00; Pia Park (President, pres@…) and Val Vance (Vice President, vp@…) are
asked to approve it (SPEC §15.6)."""

import datetime as dt

from django.core import mail

from finance.models import Account
from finance.services.checks import disbursement_void
from members.models import Person
from ncpc.core.models import MailDelivery
from tests.finance.factories import opening_balance
from tests.finance.test_check_approvals import casino_check, named  # noqa: F401 (fixture)

NOV_29 = dt.date(2026, 11, 29)


def test_an_officer_whose_address_changed_after_the_request_is_told_of_the_void_at_the_new_one(
    named,  # noqa: F811
    today,
    django_capture_on_commit_callbacks,
):
    treasurer, president, vice_president = named
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        check = casino_check(treasurer, president)
    asked = MailDelivery.objects.filter(reference=f"check:{check.pk}")
    assert sorted(asked.values_list("to", flat=True)) == ["pres@example.org", "vp@example.org"]

    # Val changes address after the request went out.
    Person.objects.filter(pk=vice_president.person.pk).update(email="val.new@example.org")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        disbursement_void(disbursement=check, reason="Wrong amount", actor=treasurer, on=NOV_29)

    assert sorted(m.to[0] for m in mail.outbox) == ["pres@example.org", "val.new@example.org"]
    val = next(m for m in mail.outbox if m.to == ["val.new@example.org"])
    assert val.body.startswith("Hello Val,\n\nCheck #1001 to Casino for $5,000.00 was voided on Nov 29, 2026")
    assert not MailDelivery.objects.filter(reference=f"check:{check.pk}:void", to="vp@example.org").exists()
