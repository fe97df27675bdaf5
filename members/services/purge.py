"""Removing a season's seats, for `import_season --replace` only. People stay (they span seasons)."""

from events.models import Season
from members.models import Membership, RulesSignature, Suspension


def members_season_purge(*, season: Season) -> None:
    memberships = Membership.objects.filter(season=season)
    RulesSignature.objects.filter(membership__in=memberships).delete()
    Suspension.objects.filter(membership__in=memberships).delete()
    # Seat chains point at each other (seat_from, PROTECT): unlink before deleting.
    memberships.update(seat_from=None)
    memberships.delete()
