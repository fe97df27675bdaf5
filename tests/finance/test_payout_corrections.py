"""SPEC §17.2, issue 45: the results of an event in a closed month corrected. Event 3 (Oct 24, 2026) had 11
members on its roster: the bylaws' payout table (§6.2) pays $165, $100 and $65. Ann won and was paid $165, Bob
$100 for 2nd, Cy $65 for 3rd; October was closed; then the results were found wrong (Bob won, Ann was 2nd).

The correction is posted in the open month, approved like a check (§4.7): the Treasurer proposes it, Hal (Vice
President) and Ida (President), both on the roster, approve it; the last approval (Dec 5, 2026) posts Bob +$65,
Ann −$65, dated that day. October's kept report still says what was paid then, the payouts page says what the
ledger holds, and the event page shows the original places beside the corrected ones."""

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from events.models import Event
from events.services.results import bust_undo, results_finish, results_reopen
from finance.models import Account, ClosedMonth, PayoutCorrectionProposal, Transaction
from finance.selectors.payouts import payout_held
from finance.services.ledger import account_balance
from finance.services.payout_corrections import (
    payout_correction_approve,
    payout_correction_due,
    payout_correction_propose,
)
from finance.services.payouts import NothingToPay
from members.models import OfficerTerm
from ncpc.core.errors import NcpcError
from tests.finance.conftest import bob_won as _bob_won
from tests.finance.conftest import everyone_eligible, october_played  # noqa: F401 (test_correction_approval's)
from tests.finance.conftest import october_bust as _bust
from tests.finance.test_closed_month_final import what_a_reader_gets

D = Decimal
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("everyone_eligible")]


@pytest.fixture
def october(everyone_eligible, season, treasurer, today):  # noqa: F811
    """The October club of ``tests.finance.conftest`` (event 3: Ann 1st, Bob 2nd, Cy 3rd, paid in cash; August
    to October closed; the clock at Dec 5), with Hal (Vice President) and Ida (President) officers, both on the
    roster, from Jun 1, 2026 to May 31, 2027."""
    hal_and_ida = (("hal", OfficerTerm.Office.VICE_PRESIDENT), ("ida", OfficerTerm.Office.PRESIDENT))
    with october_played(season=season, treasurer=treasurer, officers=hal_and_ida) as played:
        yield played


def officers(*keys: str):
    """The logins of the officers on the roster: hal (Vice President), ida (President)."""
    from django.contrib.auth import get_user_model

    return [get_user_model().objects.get(username=key) for key in keys]


def corrected(event, treasurer):
    """The Treasurer proposes the correction, Hal and Ida approve it (the last approval posts it): the
    transaction posted."""
    proposal = payout_correction_propose(event=event, actor=treasurer).record
    for officer in officers("hal", "ida"):
        proposal = payout_correction_approve(proposal=proposal, actor=officer)
    return proposal.transaction


def test_the_difference_is_posted_today_and_the_ledger_holds_the_corrected_prizes(october, treasurer):
    event, seats = october
    ann, bob, cy = (seats[k].membership_id for k in ("ann", "bob", "cy"))
    assert payout_held(event=event) == {ann: D("165.00"), bob: D("100.00"), cy: D("65.00")}
    assert payout_correction_due(event=event) is None  # paid as its results say

    _bob_won(event, seats, treasurer)
    due = payout_correction_due(event=event)
    assert [(d.name, d.place, d.paid, d.corrected, d.difference) for d in due.differences] == [
        ("Bob Test", 1, D("100.00"), D("165.00"), D("65.00")),
        ("Ann Test", 2, D("165.00"), D("100.00"), D("-65.00")),
    ]
    assert due.total == D("0.00")

    proposal = payout_correction_propose(event=event, actor=treasurer).record
    hal, ida = officers("hal", "ida")
    payout_correction_approve(proposal=proposal, actor=hal)
    assert proposal.approvals.count() == 2  # the Treasurer's, by proposing it, and Hal's: 2 of 3
    assert payout_held(event=event) == {ann: D("165.00"), bob: D("100.00"), cy: D("65.00")}  # nothing posted
    txn = payout_correction_approve(proposal=proposal, actor=ida).transaction
    assert txn.date == dt.date(2026, 12, 5)  # today, in the open month
    assert txn.kind == Transaction.Kind.PAYOUT
    assert sorted((e.account.code, e.membership_id, e.amount) for e in txn.entries.all()) == sorted(
        [(Account.PAYOUTS, bob, D("65.00")), (Account.PAYOUTS, ann, D("-65.00"))]
    )
    assert payout_held(event=event) == {ann: D("100.00"), bob: D("165.00"), cy: D("65.00")}
    payouts = Account.objects.get(code=Account.PAYOUTS)
    cash = Account.objects.get(code=Account.CASH)
    assert account_balance(account=payouts) == D("330.00")  # 165 + 100 + 65, as before
    assert account_balance(account=cash) == D("170.00")  # 500 − 330: the two differences cancel
    assert payout_correction_due(event=event) is None
    with pytest.raises(NothingToPay):
        payout_correction_propose(event=event, actor=treasurer)


def test_a_prize_taken_away_and_one_given_change_the_cash_box_by_their_sum(october, treasurer):
    """Cy (3rd, $65) is found to have been 4th and Di 3rd: Di gets $65, Cy gives $65 back."""
    event, seats = october
    event.refresh_from_db()
    results_reopen(event=event, version=event.results_version, actor=treasurer, reason="Di outlasted Cy")
    event.refresh_from_db()
    di_hand = event.eliminations.get(attendance=seats["di"]).hand
    for hand in sorted(
        set(event.eliminations.filter(hand__gte=di_hand).values_list("hand", flat=True)), reverse=True
    ):
        event.refresh_from_db()  # Bob, Cy and Di back in
        bust_undo(event=event, hand=hand, version=event.results_version, actor=treasurer)
    for name in ("cy", "di", "bob"):
        _bust(event, seats[name])
    event.refresh_from_db()
    results_finish(event=event, version=event.results_version, actor=treasurer)
    event.refresh_from_db()
    due = payout_correction_due(event=event)
    assert [(d.name, d.place, d.difference) for d in due.differences] == [
        ("Di Test", 3, D("65.00")),
        ("Cy Test", None, D("-65.00")),
    ]
    corrected(event, treasurer)
    assert payout_held(event=event)[seats["cy"].membership_id] == D("0.00")
    assert payout_held(event=event)[seats["di"].membership_id] == D("65.00")
    assert account_balance(account=Account.objects.get(code=Account.CASH)) == D("170.00")


def test_octobers_kept_report_and_its_files_stay_byte_for_byte_the_same(october, treasurer, client):
    event, seats = october
    client.force_login(treasurer)
    record = ClosedMonth.objects.get(month=dt.date(2026, 10, 1)).report
    before = what_a_reader_gets(client, 2026, 10)
    assert b"Ann Test" in before["payouts"] and b"165.00" in before["payouts"]

    _bob_won(event, seats, treasurer)
    corrected(event, treasurer)

    assert ClosedMonth.objects.get(month=dt.date(2026, 10, 1)).report == record
    after = what_a_reader_gets(client, 2026, 10)
    for key in before:
        assert after[key] == before[key], f"October's closed {key} changed"


def test_the_payouts_page_proposes_the_correction_and_the_last_approval_posts_it_dated_today(
    october, treasurer, client
):
    event, seats = october
    _bob_won(event, seats, treasurer)
    client.force_login(treasurer)
    page = client.get(reverse("finance:payouts")).content.decode()
    paid = Transaction.objects.get(key=f"payout:event:{event.pk}:")
    assert f"#{paid.pk}</a> on Oct 24, 2026, the original places" in page
    assert "Place 1: ann" in page  # the ledger's original payout, as posted
    assert "Corrected results:" in page
    assert (
        '<td>1.</td><td>Bob Test</td><td class="num">$100.00</td><td class="num">$165.00</td><td class="num">$65.00</td>'
        in page
    )
    assert "Propose the correction</button>" in page

    response = client.post(reverse("finance:payout_post", args=(event.pk,)), follow=True)
    proposal = PayoutCorrectionProposal.objects.get(event=event)
    assert (
        f"Payout correction #{proposal.pk} of event 3 proposed with your approval (1 of 3); it is posted, dated that day, "
        "once 2 more officers approve it. 2 officers were e-mailed a link to approve it."
    ) in response.content.decode()
    assert not Transaction.objects.filter(key__startswith="payout-correction:").exists()
    page = client.get(reverse("finance:payouts")).content.decode()
    assert "Awaiting approvals" in page and f"1 of 3 officers approved it ({treasurer.person})." in page
    assert "Propose the correction" not in page
    for officer in officers("hal", "ida"):
        client.force_login(officer)
        client.post(reverse("finance:payout_correction_approve", args=(proposal.pk,)))
    client.force_login(treasurer)
    correction = Transaction.objects.get(key=f"payout-correction:event:{event.pk}:")
    assert correction.date == dt.date(2026, 12, 5)
    page = client.get(reverse("finance:payouts")).content.decode()
    assert (
        f'Correction posted</span> <a href="/finance/ledger/{correction.pk}/">#{correction.pk}</a> on Dec 5, 2026'
        in page
    )
    assert '<td>Place 2: Ann Test (paid $165.00, corrected $100.00)</td><td class="num">−$65.00</td>' in page
    assert "Place 1: Bob Test (paid $100.00, corrected $165.00)" in page
    assert "Propose the correction" not in page and "Awaiting approvals" not in page


def test_the_event_page_shows_the_original_places_and_the_corrected_ones(october, treasurer, client):
    event, seats = october
    _bob_won(event, seats, treasurer)
    client.force_login(treasurer)
    page = client.get(reverse("events:event", args=(event.season.name, event.number))).content.decode()
    original = page[page.index('id="original-places"') :]
    corrected = page[page.index('id="corrected-places"') : page.index('id="original-places"')]
    assert "When the report of October 2026 was closed".lower() in original.lower()
    assert original.index("<td>1</td><td>Ann Test</td>") < original.index("<td>2</td><td>Bob Test</td>")
    assert corrected.index("Bob Test") < corrected.index("Ann Test")


def test_an_event_of_an_open_month_keeps_its_ordinary_payout(season, treasurer, today):
    event = season.events.get(number=5)  # Dec 12: December is open
    assert payout_correction_due(event=event) is None
    event.status = Event.Status.FINAL
    with pytest.raises(NcpcError):
        payout_correction_propose(event=event, actor=treasurer)


def test_while_the_correction_is_entered_the_page_says_so_and_nothing_is_due(october, treasurer, client):
    event, seats = october
    event.refresh_from_db()
    results_reopen(
        event=event, version=event.results_version, actor=treasurer, reason="Ann busted before Bob"
    )
    event.refresh_from_db()
    assert payout_correction_due(event=event) is None  # not final: nothing to post yet
    client.force_login(treasurer)
    page = client.get(reverse("events:event", args=(event.season.name, event.number))).content.decode()
    assert "Places until the correction is final" in page
    original = page[page.index('id="original-places"') :]
    assert "<td>1</td><td>Ann Test</td>" in original
