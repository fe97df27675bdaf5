"""The "Dues" panel of a member's profile page: for the member themself and the treasurer only (SPEC §12)."""

from finance.selectors.dues import dues_account, good_standing
from members.profile import register_profile_panel
from ncpc.core.clock import club_today
from ncpc.core.permissions import Action, user_can, user_person


@register_profile_panel
def dues_panel(*, request, person, season):
    if season is None:
        return None
    own = user_person(request.user) == person
    if not (own or user_can(request.user, Action.TREASURER_REPORT)):
        return None
    membership = person.memberships.filter(season=season).select_related("season", "person").first()
    if membership is None:
        return None

    on = min(club_today(), season.end)
    account = dues_account(membership=membership)
    left_on = account.left_on.get(membership.pk)  # SPEC §16.2: no credit once they left
    return {
        "title": "Dues",
        "template": "finance/partials/profile_dues.html",
        "order": 20,
        "context": {
            "membership": membership,
            "status": account.status(on=on),
            "good_standing": good_standing(membership=membership, on=on, account=account),
            "left_on": left_on if left_on is not None and left_on <= on else None,
        },
    }
