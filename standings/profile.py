"""The "Results and points" panel of a member's profile page."""

from members.profile import register_profile_panel
from standings.selectors import season_standings


@register_profile_panel
def results_panel(*, request, person, season):
    row = season_standings(season=season).row_for_person(person) if season is not None else None
    return {
        "title": "Results and points",
        "template": "standings/partials/profile_results.html",
        "order": 10,
        "context": {"person": person, "season": season, "row": row},
    }
