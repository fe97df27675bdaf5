"""An event's cash prizes, and whom they pay; what the ledger holds as paid for an event."""

from collections.abc import Sequence
from decimal import Decimal

from django.db.models import Q

from events import selectors as events_selectors
from events.models import Event, Season
from events.placings import Placing
from events.rules import SeasonRules
from events.selectors import season_rules
from finance.models import Account, Entry, Transaction
from finance.services.payouts import PayoutLine, payout_lines
from members import selectors as members_selectors
from members.models import Membership
from members.selectors import season_memberships
from ncpc.core.money import ZERO


def event_payout_lines(
    *,
    event: Event,
    placings: list[Placing] | None = None,
    rules: SeasonRules | None = None,
    memberships: Sequence[Membership] | None = None,
) -> list[PayoutLine]:
    """The cash prizes of an event, as ``finance.services.payouts.PayoutLine`` values, best place first.

    Empty until the event has placings; raises ``PayoutTableMissing`` when the season's payout table has no
    row for the number of members on the event's date. ``placings``, the season's ``rules`` and its
    ``memberships``: when the caller has them already.
    """
    if placings is None:
        placings = events_selectors.event_placings(event=event)
    if not placings:
        return []
    count = len(
        members_selectors.roster_for_event(
            season=event.season, event_number=event.number, memberships=memberships
        )
    )
    return payout_lines(rules=rules or season_rules(event.season), member_count=count, placings=placings)


def payout_member_names(*, season: Season, memberships: Sequence[Membership] | None = None) -> dict[int, str]:
    """Membership id → the member's full name, for naming who a payout line pays (never a login name).
    ``memberships``: the season's (with their people), when the caller has read them."""
    if memberships is None:
        memberships = season_memberships(season=season)
    return {m.pk: m.person.full_name for m in memberships}


def payout_paid_to(line: PayoutLine, *, names: dict[int, str]) -> str:
    """Who takes the prize, as a report prints it: the member, or the substitute who played the seat."""
    if line.paid_to == "substitute":
        return f"{line.substitute_name} (substitute)"
    return names.get(line.membership_id or 0, line.member_key)


def event_payout_prefix(*, event: Event) -> str:
    """The key prefix of an event's payout posting (``finance.services.event_payouts``)."""
    return f"payout:event:{event.pk}:"


def payout_correction_prefix(*, event: Event) -> str:
    """The key prefix of the corrections of an event's payouts posted later (SPEC §17.2,
    ``finance.services.payout_corrections``); never under ``event_payout_prefix``, so that the payout is still
    found as the event's one payout."""
    return f"payout-correction:event:{event.pk}:"


def payout_corrections_posted(*, event: Event) -> list[Transaction]:
    """The live (not reversed) corrections of the event's payouts, oldest first, their entries read."""
    return list(
        Transaction.objects.filter(
            key__startswith=payout_correction_prefix(event=event), reversed_by__isnull=True
        )
        .prefetch_related("entries__account")
        .order_by("date", "pk")
    )


def payout_held(*, event: Event) -> dict[int, Decimal]:
    """What the ledger holds as paid to each seat (membership id) for the event: its live payout posting and
    the live corrections after it, added up (a seat the ledger never paid is absent)."""
    held: dict[int, Decimal] = {}
    entries = Entry.objects.filter(
        Q(transaction__key__startswith=event_payout_prefix(event=event))
        | Q(transaction__key__startswith=payout_correction_prefix(event=event)),
        transaction__reversed_by__isnull=True,
        account__code=Account.PAYOUTS,
        membership__isnull=False,
    ).values_list("membership_id", "amount")
    for membership_id, amount in entries:
        held[membership_id] = held.get(membership_id, ZERO) + amount
    return held
