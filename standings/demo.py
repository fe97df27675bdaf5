"""Demo data for standings: nothing to add unless the demo has results with a tie at the top.

When the demo's results leave two or more members tied for first, record that they agreed on their order
(by key), so the demo shows a recorded tie-break. Idempotent: it records at most one tie-break per season.
"""

from members.models import Membership
from standings.models import TieBreak
from standings.selectors import season_standings
from standings.services.tie_breaks import tie_break_record


def demo_tie_break(context: dict) -> None:
    season = context.get("season")
    if season is None or TieBreak.objects.filter(season=season).exists():
        return
    standings = season_standings(season=season)
    if not standings.events:
        return
    leaders = next((g for g in standings.tied_groups if g[0].rank == 1), None)
    if not leaders:
        return
    order = list(
        Membership.objects.filter(pk__in=[r.membership.pk for r in leaders])
        .select_related("person")
        .order_by("person__key")
    )
    tie_break_record(
        season=season, order=order, how=TieBreak.How.AGREEMENT, note="Demo: agreed at the bar", actor=None
    )


DEMO_STEPS = [(50, demo_tie_break)]
