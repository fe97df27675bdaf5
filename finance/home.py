"""The "My dues" panel of the home page."""

from ncpc.clock import club_today
from ncpc.home import register_home_panel
from ncpc.permissions import user_person


@register_home_panel
def my_dues_panel(*, request, season):
    person = user_person(request.user)
    if person is None or season is None:
        return None
    from members.selectors import season_memberships

    membership = next((m for m in season_memberships(season=season) if m.person_id == person.pk), None)
    if membership is None:
        return None
    from finance.selectors import dues_account, good_standing
    from finance.services.dues import LATE_FEE

    on = min(club_today(), season.end)
    from events.selectors import season_rules

    account = dues_account(membership=membership, rules=season_rules(season))
    upcoming = [c for c in account.charges if c.date > on and c.kind != LATE_FEE]
    return {
        "title": "My dues",
        "template": "finance/partials/home_dues.html",
        "order": 20,
        "context": {
            "status": account.status(on=on),
            "good_standing": good_standing(membership=membership, on=on, account=account),
            "next_charge": upcoming[0] if upcoming else None,
        },
    }
