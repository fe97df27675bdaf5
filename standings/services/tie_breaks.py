"""Recording tie-breaks and WSOP declines (commands: one transaction, one audit row each)."""

from collections.abc import Sequence

from django.db import transaction

from events.models import Season
from members.models import Membership
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.errors import NcpcError
from standings.models import TieBreak, TieBreakEntry, WsopDecline
from standings.selectors import season_standings


class TieBreakInvalid(NcpcError):
    pass


class DeclineInvalid(NcpcError):
    pass


def _lock_season(season: Season) -> Season:
    # Two officers recording at once serialize on the season row.
    return Season.objects.select_for_update().get(pk=season.pk)


@transaction.atomic
def tie_break_record(
    *, season: Season, order: Sequence[Membership], how: str, note: str = "", actor: Actor
) -> TieBreak:
    """Record the order (best first) that a heads-up playoff or an agreement gave a group of members who
    have equal points now (§10.6). The newest tie-break naming a whole tied group decides it."""
    _lock_season(season)
    if how not in TieBreak.How.values:
        raise TieBreakInvalid("Say how the tie was broken: a heads-up playoff or an agreement.")
    ids = [m.pk for m in order]
    if len(ids) < 2:
        raise TieBreakInvalid("A tie-break orders at least two members.")
    if len(set(ids)) != len(ids):
        raise TieBreakInvalid("Each member can have only one place in the tie-break.")
    if any(m.season_id != season.pk for m in order):
        raise TieBreakInvalid(f"Every member of the tie-break must hold a seat in {season}.")
    standings = season_standings(season=season)
    points = {row.membership.pk: row.points for row in standings.rows}
    if len({points.get(mid) for mid in ids}) != 1:
        names = ", ".join(f"{m.person} ({points.get(m.pk, 0)})" for m in order)
        raise TieBreakInvalid(
            f"These members do not have equal points, so there is no tie to break: {names}."
        )
    tie_break = TieBreak.objects.create(
        season=season, how=how, note=note, points=points[ids[0]], recorded_by=actor_user(actor)
    )
    TieBreakEntry.objects.bulk_create(
        TieBreakEntry(tie_break=tie_break, membership=m, position=i) for i, m in enumerate(order, start=1)
    )
    names = ", ".join(f"{i}. {m.person}" for i, m in enumerate(order, start=1))
    audit_record(
        actor=actor,
        action="standings.tie_break",
        summary=f"Tie-break in {season} ({tie_break.get_how_display()}): {names}",
        target=tie_break,
        reason=note,
        data={"order": [m.person.key for m in order], "how": how, "points": tie_break.points},
    )
    return tie_break


@transaction.atomic
def wsop_decline_record(
    *, season: Season, membership: Membership, note: str = "", actor: Actor
) -> WsopDecline:
    """A WSOP representative cannot attend (§8.4): the next non-qualifying eligible finisher takes the seat."""
    _lock_season(season)
    if membership.season_id != season.pk:
        raise DeclineInvalid(f"{membership.person} does not hold a seat in {season}.")
    if WsopDecline.objects.filter(membership=membership).exists():
        raise DeclineInvalid(f"{membership.person} has already declined the WSOP seat.")
    row = season_standings(season=season).row_for(membership.pk)
    if row is None or row.wsop not in ("qualified", "replacement"):
        raise DeclineInvalid(
            f"{membership.person} is not a WSOP representative now, so there is no seat to decline."
        )
    decline = WsopDecline.objects.create(
        season=season, membership=membership, note=note, recorded_by=actor_user(actor)
    )
    audit_record(
        actor=actor,
        action="standings.wsop_decline",
        summary=f"{membership.person} declined the WSOP seat of {season}",
        target=decline,
        reason=note,
        data={"member": membership.person.key, "status_before": row.wsop},
    )
    return decline


@transaction.atomic
def wsop_decline_withdraw(*, decline: WsopDecline, reason: str, actor: Actor) -> None:
    """Undo a decline recorded by mistake (the member can attend after all)."""
    decline = (
        WsopDecline.objects.select_for_update()
        .select_related("membership__person", "season")
        .get(pk=decline.pk)
    )
    if not reason.strip():
        raise DeclineInvalid("Give a reason for withdrawing the decline.")
    audit_record(
        actor=actor,
        action="standings.wsop_decline_withdrawn",
        summary=f"Withdrew {decline.membership.person}'s WSOP decline for {decline.season}",
        target=decline,
        reason=reason,
        data={"member": decline.membership.person.key},
    )
    decline.delete()
