"""Seats changing hands or freeing up mid-season: sell/cede (§2.5, §2.5.1), withdrawal, removal (§2.11,
§5.5.3). Commands; each writes its audit row in the same transaction."""

import datetime as dt
from typing import Any

from django.db import transaction

from events.models import Event, Season
from events.selectors import season_rules
from members import hooks
from members.models import Membership, Person, Removal, Vote, WaitingListEntry
from members.selectors import current_member_count, next_event_number
from members.services.admission import AdmissionRefused, VoteCounts, admission_checked
from members.services.closed_months import closed_month_refuse
from members.services.late_joiners import JoinTerms, join_terms
from members.services.votes import vote_build, vote_counts_problems
from members.services.waiting_list import offer_seat_to_first_alternate
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import ConcurrentChange, NcpcError
from ncpc.core.majority import majority


def last_event_before(*, membership: Membership, on: dt.date) -> int:
    """The event after which a member leaving on ``on`` is gone: the last event held before that date.

    Never before the member's first event minus one (a member who leaves before playing).
    """
    season = membership.season
    upcoming = next_event_number(season=season, on=on)
    last = season_rules(season).events_per_season if upcoming is None else upcoming - 1
    return max(last, membership.first_event - 1)


def _lock_active(membership: Membership) -> Membership:
    locked = Membership.objects.select_for_update().select_related("season", "person").get(pk=membership.pk)
    if locked.left_after_event is not None:
        raise ConcurrentChange(f"{locked.person} has already left {locked.season}; reload the page.")
    return locked


def _leave(*, membership: Membership, on: dt.date, how: str) -> None:
    if not membership.season.contains(on):
        raise NcpcError(f"The date {on:%b %-d, %Y} is outside season {membership.season}.")
    # No payment is booked after a member left: nor does a departure go back before one (a payment made earlier
    # on the day of leaving stands, as at the door before a withdrawal that evening).
    paid_on = hooks.last_payment_on(membership=membership)
    if paid_on is not None and paid_on > on:
        raise NcpcError(
            f"{membership.person} has a payment dated {paid_on:%b %-d, %Y}, after {on:%b %-d, %Y}: a member "
            f"pays nothing once he has left. Date the departure on or after {paid_on:%b %-d, %Y}, or reverse "
            "that payment first.",
            field="on",
        )
    membership.left_after_event = last_event_before(membership=membership, on=on)
    membership.how_left = how
    membership.left_on = on
    membership.save(update_fields=["left_after_event", "how_left", "left_on"])


@transaction.atomic
def seat_transfer(
    *,
    seller: Membership,
    buyer: Person,
    how: str,
    on: dt.date,
    sponsor: Person | None,
    vote: VoteCounts | None,
    declared_not_professional: bool,
    actor: Actor = None,
    reason: str = "",
) -> Membership:
    """The seller sells or cedes the seat (initiated by the Vice President, §2.5.1); the buyer takes it.

    The buyer is a new member (SPEC §15.2): §2.1–2.4 apply as at any admission (age, a sponsor who is a current
    member — the seller may sponsor —, a majority vote, not a professional; the rules document is signed before
    their first event). The late-joiner terms follow the buyer's own first event. The seller keeps their
    membership (and so every place and point they earned: points never move, §2.5); it ends after the last
    event held before ``on``. The buyer's membership has ``seat_from`` = the seller's, so the seat's dues
    account continues with the buyer (no second admin fee). If any condition fails nothing is saved.
    """
    if how not in (Membership.HowLeft.SOLD, Membership.HowLeft.CEDED):
        raise NcpcError("A seat is either sold or ceded.")
    # The season row first, as every admission: two officers cannot fill a seat at the same time.
    Season.objects.select_for_update().filter(pk=seller.season_id).first()
    seller = _lock_active(seller)
    season = seller.season
    closed_month_refuse(day=on, field="on")  # the day the seat changes hands (SPEC §17.2)
    first_event, admission_vote = _buyer_admission(
        seller=seller,
        buyer=buyer,
        on=on,
        sponsor=sponsor,
        vote=vote,
        declared_not_professional=declared_not_professional,
        actor=actor,
    )

    _leave(membership=seller, on=on, how=how)
    bought = _buyer_seated(
        seller=seller,
        buyer=buyer,
        on=on,
        first_event=first_event,
        sponsor=sponsor,
        admission_vote=admission_vote,
    )
    terms = join_terms(rules=season_rules(season), first_event=bought.first_event)
    audit_record(
        actor=actor,
        action=f"member.seat.{how}",
        target=bought,
        summary=(
            f"{seller.person} {'sold' if how == Membership.HowLeft.SOLD else 'ceded'} the seat to {buyer}: "
            f"{seller.person} leaves after event {seller.left_after_event}, {buyer} plays from event "
            f"{bought.first_event}"
        ),
        reason=reason,
        data={"seller_membership": seller.pk, "buyer_membership": bought.pk, **_terms_data(terms)},
    )
    return bought


def _buyer_admission(
    *,
    seller: Membership,
    buyer: Person,
    on: dt.date,
    sponsor: Person | None,
    vote: VoteCounts | None,
    declared_not_professional: bool,
    actor: Actor,
) -> tuple[int, Vote]:
    """The buyer's first event and admission vote (saved), every condition of admission checked as for a new
    member, the seat being freed by the seller; refused (NcpcError) naming every unmet condition."""
    if buyer.pk == seller.person_id:
        raise NcpcError("The seat was not transferred: the buyer and the seller are the same person.")
    try:
        return admission_checked(
            person=buyer,
            season=seller.season,
            on=on,
            sponsor=sponsor,
            vote=vote,
            declared_not_professional=declared_not_professional,
            seat_freed=True,
            actor=actor,
        )
    except AdmissionRefused as exc:
        raise NcpcError("The seat was not transferred: " + " ".join(exc.problems)) from exc


def _buyer_seated(
    *,
    seller: Membership,
    buyer: Person,
    on: dt.date,
    first_event: int,
    sponsor: Person | None,
    admission_vote: Vote | None,
) -> Membership:
    """The buyer's membership on the seller's seat (``seat_from``: the seat's dues account continues), playing
    from their own first event but never before the seller's; the buyer leaves the waiting list."""
    bought = Membership.objects.create(
        person=buyer,
        season=seller.season,
        first_event=max(first_event, seller.first_event),
        joined_on=on,
        seat_from=seller,
        sponsor=sponsor,
        admission_vote=admission_vote,
        declared_not_professional=True,
    )
    WaitingListEntry.objects.filter(person=buyer, status=WaitingListEntry.Status.WAITING).update(
        status=WaitingListEntry.Status.ADMITTED, closed_on=on
    )
    return bought


def _terms_data(terms: JoinTerms) -> dict[str, Any]:
    return {
        "first_event": terms.first_event,
        "owes_admin_fee": terms.owes_admin_fee,
        "can_qualify_for_wsop": terms.can_qualify_for_wsop,
        "one_percent_benefit": terms.one_percent_benefit,
    }


@transaction.atomic
def member_withdraw(
    *, membership: Membership, on: dt.date, actor: Actor = None, reason: str = ""
) -> Membership:
    """The member gives up the seat without selling or ceding it; the seat is offered to the first alternate."""
    membership = _lock_active(membership)
    closed_month_refuse(day=on, field="on")  # the day the member leaves (SPEC §17.2)
    _leave(membership=membership, on=on, how=Membership.HowLeft.WITHDREW)
    audit_record(
        actor=actor,
        action="member.withdraw",
        target=membership,
        summary=f"{membership.person} withdrew from {membership.season} after event {membership.left_after_event}",
        reason=reason,
    )
    offer_seat_to_first_alternate(on=on, actor=actor)
    return membership


def first_january_event_date(*, season: Season) -> dt.date | None:
    return (
        Event.objects.filter(season=season, date__month=1)
        .order_by("date", "number")
        .values_list("date", flat=True)
        .first()
    )


def _removal_problems(
    *,
    membership: Membership,
    grounds: str,
    held_on: dt.date,
    yes: int,
    no: int,
    abstain: int,
    nominated_by: Person | None,
    members_now: int,
) -> list[str]:
    """Why the removal vote cannot remove the member (empty when it can): the counts, the grounds' own
    conditions (§2.11 after the first January event and only if unpaid then; §5.5.3 a nominating member), a
    majority of the current members."""
    problems = vote_counts_problems(yes=yes, no=no, abstain=abstain, members_eligible=members_now)
    if grounds == Removal.Grounds.UNPAID_FEES:
        january = first_january_event_date(season=membership.season)
        if january is None or held_on < january:
            problems.append(
                "A removal for unpaid fees can be voted only after the first January event (§2.11)"
                + (f", on {january:%b %-d, %Y}." if january else ".")
            )
        else:
            if hooks.dues_paid_up(membership=membership, on=january):
                problems.append(
                    f"{membership.person} had paid in full by the first January event ({january:%b %-d, %Y}), "
                    "so cannot be removed for unpaid fees (§2.11)."
                )
    elif grounds == Removal.Grounds.ABUSE:
        if nominated_by is None:
            problems.append("A removal for abuse needs the club member who nominated it (§5.5.3).")
    else:
        problems.append("Choose the grounds for removal.")
    if not problems and not majority(yes=yes, members=members_now):
        problems.append(
            f"Not removed: {yes} yes of {members_now} current members is not a majority "
            f"(more than half is needed)."
        )
    return problems


@transaction.atomic
def member_remove(
    *,
    membership: Membership,
    grounds: str,
    held_on: dt.date,
    yes: int,
    no: int = 0,
    abstain: int = 0,
    nominated_by: Person | None = None,
    notes: str = "",
    actor: Actor = None,
) -> Removal:
    """Remove a member after a club vote (§2.11 unpaid fees, §5.5.3 abuse): they forfeit the money paid
    (§2.12, §5.5.3.1) and the seat is offered to the first alternate. Without a majority nothing is saved."""
    membership = _lock_active(membership)
    # The vote's day is the day the member is removed (SPEC §17.2: never inside a closed month).
    closed_month_refuse(day=held_on, field="held_on")
    season = membership.season
    members_now = current_member_count(season=season)
    problems = _removal_problems(
        membership=membership,
        grounds=grounds,
        held_on=held_on,
        yes=yes,
        no=no,
        abstain=abstain,
        nominated_by=nominated_by,
        members_now=members_now,
    )
    if problems:
        raise NcpcError(" ".join(problems))

    vote = vote_build(
        kind=Vote.Kind.REMOVAL,
        subject=f"Remove {membership.person} from {season}",
        held_on=held_on,
        yes=yes,
        no=no,
        abstain=abstain,
        members_eligible=members_now,
        season=season,
        person=membership.person,
        actor=actor,
    )
    vote.save()
    _leave(membership=membership, on=held_on, how=Membership.HowLeft.REMOVED)
    removal = _removal_record(
        membership=membership,
        grounds=grounds,
        vote=vote,
        nominated_by=nominated_by,
        held_on=held_on,
        notes=notes,
        yes=yes,
        members_now=members_now,
        actor=actor,
    )
    offer_seat_to_first_alternate(on=held_on, actor=actor)
    return removal


def _removal_record(
    *,
    membership: Membership,
    grounds: str,
    vote: Vote,
    nominated_by: Person | None,
    held_on: dt.date,
    notes: str,
    yes: int,
    members_now: int,
    actor: Actor,
) -> Removal:
    """The removal's row (the money paid is forfeited) and its audit row, naming the vote."""
    removal = Removal.objects.create(
        membership=membership,
        grounds=grounds,
        vote=vote,
        nominated_by=nominated_by,
        removed_on=held_on,
        forfeits_payments=True,
        notes=notes,
    )
    audit_record(
        actor=actor,
        action="member.remove",
        target=membership,
        summary=(
            f"Removed {membership.person} from {membership.season} by a vote of {yes} of {members_now} "
            f"({removal.get_grounds_display()}); money paid is forfeited"
        ),
        reason=notes,
        data={"vote": vote.pk, "left_after_event": membership.left_after_event},
    )
    return removal
