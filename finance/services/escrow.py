"""WSOP money (SPEC §8, §9): moving the season's WSOP allocation to escrow, recording winnings."""

import datetime as dt
from collections.abc import Collection
from decimal import Decimal

from django.db import IntegrityError, transaction

from events.models import Season
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.event_fund import WsopAllocation, wsop_allocation
from finance import hooks
from finance.models import Account, Transaction, WsopResult
from finance.services.ledger import EntryLine, next_key, posted_under_key, transaction_post
from finance.services.wsop import WsopSplit, wsop_split
from members import selectors as members_selectors
from members.models import Membership
from members.services.late_joiners import join_terms
from ncpc.core.audit import Actor, actor_signed_in, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.money import money_display, quantize
from ncpc.core.results import Booked


class WsopError(NcpcError):
    pass


# WSOP winnings are the representative's, reported to the club, not money the club books: no season limit,
# only what the ledger's column holds.
WINNINGS_LIMIT = Decimal("9999999999.99")


# The standings' WSOP statuses (SPEC §13) that matter here.
GOING = ("qualified", "replacement")
REPLACEMENT = "replacement"
DECLINED = "declined"


def season_member_count(*, season: Season, memberships: Collection[Membership] | None = None) -> int:
    """SPEC §6: the WSOP member count is the number of members at the season's first event."""
    return len(members_selectors.roster_for_event(season=season, event_number=1, memberships=memberships))


def season_wsop_allocation(*, season: Season) -> WsopAllocation:
    return wsop_allocation(rules=season_rules(season), member_count=season_member_count(season=season))


def escrow_key(*, season: Season) -> str:
    return f"wsop-escrow:season:{season.pk}:"


@transaction.atomic
def wsop_escrow_move(*, season: Season, date: dt.date, actor: Actor) -> Transaction:
    """Move the season's WSOP entries and expenses from club checking to the escrow account, once."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    existing = posted_under_key(prefix=escrow_key(season=season))
    if existing is not None:
        return existing
    allocation = season_wsop_allocation(season=season)
    return transaction_post(
        date=date,
        kind=Transaction.Kind.WSOP_ESCROW,
        memo=f"WSOP money for {season}: {allocation.prizes} prize(s) to escrow",
        lines=[
            EntryLine(Account.ESCROW, allocation.escrow, memo="WSOP entries and expenses (§8.1)"),
            EntryLine(Account.CHECKING, -allocation.escrow),
        ],
        actor=actor,
        key=next_key(prefix=escrow_key(season=season)),
    )


@transaction.atomic
def wsop_result_record(
    *,
    season: Season,
    representative: Membership,
    gross: Decimal,
    tips: Decimal,
    declined: Membership | None = None,
    actor: Actor,
    once: str | None = None,
) -> Booked[WsopResult]:
    """``once``: the form's one-time key; the same form sent again returns the first record (``replayed``)."""
    if once:
        existing = WsopResult.objects.filter(form_key=once).first()
        if existing is not None:
            return Booked(existing, replayed=True)
    _winnings_check(gross=gross, tips=tips)
    _representative_check(season=season, representative=representative, declined=declined)
    if WsopResult.objects.filter(season=season, representative=representative).exists():
        raise WsopError(f"Winnings of {representative.person} are recorded already for {season}.")
    try:
        with transaction.atomic():
            result = WsopResult.objects.create(
                season=season,
                representative=representative,
                gross=gross,
                tips=tips,
                declined=declined,
                recorded_by=actor_signed_in(actor),
                form_key=once or None,
            )
    except IntegrityError:
        # A parallel request committed first: the same form (show it), or the same representative's winnings.
        first = WsopResult.objects.filter(form_key=once).first() if once else None
        if first is None:
            raise WsopError(
                f"Winnings of {representative.person} are recorded already for {season}."
            ) from None
        return Booked(first, replayed=True)
    audit_record(
        actor=actor,
        action="finance.wsop_result",
        summary=f"WSOP winnings of {representative.person}: gross {gross}, tips {tips}",
        target=result,
    )
    return Booked(result)


def _winnings_check(*, gross: Decimal, tips: Decimal) -> None:
    """The form's checks, made by the command too: amounts in cents the books can hold, tips within the gross."""
    for name, value in (("gross", gross), ("tips", tips)):
        # The form's checks, made by the command too: an amount in cents the books can hold.
        if not isinstance(value, Decimal) or not value.is_finite() or quantize(value) != value:
            raise WsopError("Winnings and tips are amounts of money in cents.", field=name)
        if value > WINNINGS_LIMIT:
            raise WsopError(f"{money_display(value)} is more than the books can hold.", field=name)
    if tips < 0 or gross < 0:
        raise WsopError("Winnings and tips cannot be negative.")
    if tips > gross:
        raise WsopError("Tips cannot exceed the gross winnings.", field="tips")


def _representative_check(*, season: Season, representative: Membership, declined: Membership | None) -> None:
    """The representative went to the WSOP for the season (a qualifier or a replacement, SPEC §15.3); the
    declined qualifier, when named, declined the seat the representative took as a replacement (§8.4)."""
    if representative.season_id != season.pk or (declined is not None and declined.season_id != season.pk):
        raise WsopError("The representative and the declined qualifier must be members of this season.")
    if declined is not None and declined.pk == representative.pk:
        raise WsopError("The representative cannot also be the qualifier who declined.", field="declined")
    statuses = hooks.wsop_statuses(season=season)
    status = statuses.get(representative.pk, "none")
    if status not in GOING:
        raise WsopError(
            f"{representative.person} is not going to the WSOP for {season} (status: {status}): winnings are "
            "recorded only for a qualifier or a replacement.",
            field="representative",
        )
    if declined is not None:
        if statuses.get(declined.pk) != DECLINED:
            raise WsopError(
                f"{declined.person} did not decline a WSOP seat of {season}: only a qualifier who declined "
                "(§8.4) gets the share of a replacement's winnings.",
                field="declined",
            )
        if status != REPLACEMENT:
            raise WsopError(
                f"{representative.person} qualified in their own right, so replaced nobody: leave the declined "
                "qualifier empty.",
                field="declined",
            )


def wsop_result_split(
    *,
    result: WsopResult,
    rules: SeasonRules | None = None,
    memberships: Collection[Membership] | None = None,
) -> WsopSplit:
    """The split of recorded winnings among the roster at the season's last event (SPEC §9). The season's
    ``rules`` and ``memberships`` (with their people), when the caller has read them."""
    rules = rules or season_rules(result.season)
    roster = members_selectors.roster_for_event(
        season=result.season, event_number=rules.events_per_season, memberships=memberships
    )
    others = [m for m in roster if m.pk != result.representative_id]
    # SPEC §15.2: a member whose first event is late enough gets the 1% benefit, seat taken over or not.
    late = [
        m.person.key for m in others if join_terms(rules=rules, first_event=m.first_event).one_percent_benefit
    ]

    declined_key = result.declined.person.key if result.declined is not None else None
    keys = [m.person.key for m in others]
    if declined_key and declined_key not in keys:
        keys.append(declined_key)
    return wsop_split(
        rules=rules,
        gross=result.gross,
        tips=result.tips,
        others=keys,
        late_joiners=late,
        declined=declined_key,
    )
