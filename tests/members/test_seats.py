import datetime as dt

import pytest

from members.models import Membership, Removal, Vote, WaitingListEntry
from members.selectors import first_alternate, roster_for_event
from members.services.admission import VoteCounts, member_admit
from members.services.seats import member_remove, member_withdraw, seat_transfer
from members.services.waiting_list import waiting_list_add
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from tests.factories import PersonFactory
from tests.members.factories import seats_fill


@pytest.fixture
def club(db, season, today):
    return seats_fill(season=season, count=10)


def admitted_by(seller, on):
    """The sponsor, vote and statement of an ordinary admission: the seller sponsors, all 10 members vote yes."""
    return {
        "sponsor": seller.person,
        "vote": VoteCounts(held_on=on, yes=10),
        "declared_not_professional": True,
    }


def test_a_sold_seat_goes_to_the_buyer_and_the_points_stay_with_the_seller(season, club, today):
    seller = club[0]
    buyer = PersonFactory()
    bought = seat_transfer(
        seller=seller, buyer=buyer, how=Membership.HowLeft.SOLD, on=today, **admitted_by(seller, today)
    )

    seller.refresh_from_db()
    # The seller keeps their own membership (and with it every place and point earned through event 4)...
    assert seller.person != buyer
    assert seller.left_after_event == 4
    assert seller.how_left == Membership.HowLeft.SOLD
    assert seller.left_on == today
    # ...and the buyer gets a new membership from the December event, linked to the seller's seat.
    assert bought.pk != seller.pk
    assert bought.person == buyer
    assert bought.seat_from == seller
    assert bought.first_event == 5
    assert seller in roster_for_event(season=season, event_number=4)
    assert seller not in roster_for_event(season=season, event_number=5)
    assert bought in roster_for_event(season=season, event_number=5)
    assert bought not in roster_for_event(season=season, event_number=4)
    assert AuditEntry.objects.filter(action="member.seat.sold").count() == 1


def test_a_ceded_seat_is_recorded_as_ceded_and_does_not_go_to_the_first_alternate(season, club, today):
    waiting_list_add(person=PersonFactory(), on=today)
    seat_transfer(
        seller=club[1],
        buyer=PersonFactory(),
        how=Membership.HowLeft.CEDED,
        on=today,
        **admitted_by(club[1], today),
    )
    club[1].refresh_from_db()
    assert club[1].how_left == Membership.HowLeft.CEDED
    assert first_alternate().offered_on is None


def test_a_seat_cannot_be_sold_to_someone_under_age_or_professional(season, club, today):
    with pytest.raises(NcpcError, match="at least 21"):
        seat_transfer(
            seller=club[0],
            buyer=PersonFactory(date_of_birth=dt.date(2010, 1, 1)),
            how="sold",
            on=today,
            **admitted_by(club[0], today),
        )
    with pytest.raises(NcpcError, match="professional"):
        seat_transfer(
            seller=club[0],
            buyer=PersonFactory(is_professional=True),
            how="sold",
            on=today,
            **admitted_by(club[0], today),
        )
    club[0].refresh_from_db()
    assert club[0].left_after_event is None


def test_a_seat_already_given_up_cannot_be_sold_again(season, club, today):
    seat_transfer(seller=club[0], buyer=PersonFactory(), how="sold", on=today, **admitted_by(club[0], today))
    with pytest.raises(NcpcError, match="already left"):
        seat_transfer(
            seller=club[0], buyer=PersonFactory(), how="sold", on=today, **admitted_by(club[0], today)
        )


def test_a_withdrawal_offers_the_seat_to_the_first_alternate_who_can_then_be_admitted(season, club, today):
    first = waiting_list_add(person=PersonFactory(), sponsor=club[0].person, on=today)
    waiting_list_add(person=PersonFactory(), on=today)
    member_withdraw(membership=club[2], on=today)
    club[2].refresh_from_db()
    assert club[2].how_left == Membership.HowLeft.WITHDREW
    first.refresh_from_db()
    assert first.offered_on == today

    joined = member_admit(
        person=first.person,
        season=season,
        on=today,
        sponsor=club[0].person,
        vote=VoteCounts(held_on=today, yes=5),  # 9 members now: 5 of 9 is a majority
        declared_not_professional=True,
    )
    assert joined.first_event == 5
    first.refresh_from_db()
    assert first.status == WaitingListEntry.Status.ADMITTED


def test_a_removal_vote_of_exactly_half_removes_nobody_and_saves_nothing(season, club, today):
    votes, audits = Vote.objects.count(), AuditEntry.objects.count()
    with pytest.raises(NcpcError, match="5 yes of 10 current members is not a majority"):
        member_remove(
            membership=club[4],
            grounds=Removal.Grounds.ABUSE,
            nominated_by=club[0].person,
            held_on=today,
            yes=5,
        )
    club[4].refresh_from_db()
    assert club[4].left_after_event is None
    assert (Vote.objects.count(), AuditEntry.objects.count()) == (votes, audits)


def test_a_majority_removes_the_member_who_forfeits_the_money_and_the_seat_goes_to_the_first_alternate(
    season, club, today
):
    alternate = waiting_list_add(person=PersonFactory(), on=today)
    removal = member_remove(
        membership=club[4],
        grounds=Removal.Grounds.ABUSE,
        nominated_by=club[0].person,
        held_on=today,
        yes=6,
        no=3,
        abstain=1,
    )
    club[4].refresh_from_db()
    assert club[4].how_left == Membership.HowLeft.REMOVED
    assert club[4].left_after_event == 4
    assert removal.forfeits_payments
    assert removal.vote.kind == Vote.Kind.REMOVAL
    assert removal.vote.passed
    alternate.refresh_from_db()
    assert alternate.offered_on == today
    assert AuditEntry.objects.filter(action="member.remove").count() == 1


def test_removal_for_unpaid_fees_waits_for_the_first_january_event(season, club, today):
    with pytest.raises(NcpcError, match="only after the first January event"):
        member_remove(membership=club[4], grounds=Removal.Grounds.UNPAID_FEES, held_on=today, yes=10)
    # The January event of 2026-27 is on 23 Jan 2027.
    removal = member_remove(
        membership=club[4], grounds=Removal.Grounds.UNPAID_FEES, held_on=dt.date(2027, 1, 23), yes=6
    )
    assert removal.membership.left_after_event == 5  # it is voted at the January event, before it is played


def test_a_member_paid_in_full_by_the_january_event_cannot_be_removed_for_unpaid_fees(
    season, club, treasurer
):
    from decimal import Decimal

    from finance.services.payments import payment_record

    # $510 = the whole dues schedule of §2.8 (110 + 4 × 100), paid before the December event.
    payment_record(
        membership=club[4],
        date=dt.date(2026, 11, 29),
        amount=Decimal("510.00"),
        method="check",
        actor=treasurer,
    )
    with pytest.raises(NcpcError, match="had paid in full by the first January event"):
        member_remove(
            membership=club[4], grounds=Removal.Grounds.UNPAID_FEES, held_on=dt.date(2027, 1, 23), yes=6
        )


def test_removal_for_abuse_needs_the_member_who_nominated_it(season, club, today):
    with pytest.raises(NcpcError, match="nominated"):
        member_remove(membership=club[4], grounds=Removal.Grounds.ABUSE, held_on=today, yes=10)


def test_spec_15_2_a_buyer_is_a_new_member_who_needs_a_sponsor_a_majority_and_the_statement(
    season, club, today
):
    buyer = PersonFactory()
    with pytest.raises(NcpcError) as refused:
        seat_transfer(
            seller=club[0],
            buyer=buyer,
            how="sold",
            on=today,
            sponsor=None,
            vote=VoteCounts(held_on=today, yes=5),  # 5 of 10 members is not more than half
            declared_not_professional=False,
        )
    text = str(refused.value)
    assert "sponsor" in text and "not a majority" in text and "statement" in text
    club[0].refresh_from_db()
    assert club[0].left_after_event is None  # nothing saved
    assert not Membership.objects.filter(person=buyer).exists()
    assert not Vote.objects.filter(person=buyer).exists()

    with pytest.raises(NcpcError, match="No admission vote"):
        seat_transfer(
            seller=club[0],
            buyer=buyer,
            how="sold",
            on=today,
            sponsor=club[0].person,
            vote=None,
            declared_not_professional=True,
        )


def test_spec_15_2_the_seller_may_sponsor_and_the_vote_is_recorded_with_the_buyers_seat(season, club, today):
    bought = seat_transfer(
        seller=club[0],
        buyer=PersonFactory(),
        how="ceded",
        on=today,
        sponsor=club[0].person,
        vote=VoteCounts(held_on=today, yes=6),  # 6 of 10: a majority
        declared_not_professional=True,
    )
    assert bought.sponsor == club[0].person
    assert bought.admission_vote.kind == Vote.Kind.ADMISSION
    assert (bought.admission_vote.yes, bought.admission_vote.members_eligible) == (6, 10)


def test_spec_15_2_a_full_club_can_still_sell_a_seat(season, today):
    club = seats_fill(season=season, count=20)  # all 20 seats taken: the buyer takes the seller's
    bought = seat_transfer(
        seller=club[0],
        buyer=PersonFactory(),
        how="sold",
        on=today,
        **{**admitted_by(club[0], today), "vote": VoteCounts(held_on=today, yes=11)},  # 11 of 20
    )
    assert bought.first_event == 5
