"""The home page panel: the top of the standings and the member's own rank."""

from ncpc.home import register_home_panel
from ncpc.permissions import Action, user_can, user_person

TOP = 5


@register_home_panel
def standings_panel(*, request, season):
    if season is None or not user_can(request.user, Action.VIEW_CLUB):
        return None
    from events.selectors import season_rules
    from standings.selectors import season_standings

    standings = season_standings(season=season, rules=season_rules(season))
    mine = standings.row_for_person(user_person(request.user))
    top = standings.rows[:TOP]
    return {
        "title": f"Standings {season}",
        "template": "standings/partials/home_panel.html",
        "context": {
            "season": season,
            "rows": top,
            "mine": mine,
            "mine_in_top": mine is not None and mine in top,
            "played": len(standings.events),
        },
        "order": 20,
    }
