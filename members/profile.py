"""Panels on a member's profile page that other apps fill (results and points, dues), like ncpc.club.home.

A panel function takes ``request``, ``person`` and ``season`` and returns None or a dict:
{"title": str, "template": "app/partials/x.html", "context": {...}, "order": int}. The function decides
what the viewer may see (own dues: the member themself and the treasurer).
"""

from collections.abc import Callable

_PANELS: list[Callable] = []


def register_profile_panel(func: Callable) -> Callable:
    _PANELS.append(func)
    return func


def profile_panels(*, request, person, season) -> list[dict]:
    panels = [p for func in _PANELS if (p := func(request=request, person=person, season=season))]
    return sorted(panels, key=lambda p: p.get("order", 50))
