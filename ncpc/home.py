"""Home page panels. Each app registers a function that returns a panel (or None) for the user.

A panel is a dict: {"title": str, "template": "app/partials/x.html", "context": {...}, "order": int}.
This keeps the home view free of other apps' rules.
"""

from collections.abc import Callable

from ncpc.cache import computed

_PANELS: list[Callable] = []


def register_home_panel(func: Callable) -> Callable:
    _PANELS.append(func)
    return func


@computed(lambda *, request, season: f"{request.user.pk}:{season.pk if season else None}")
def home_panels(*, request, season) -> list[dict]:
    panels = []
    for func in _PANELS:
        panel = func(request=request, season=season)
        if panel:
            panels.append(panel)
    return sorted(panels, key=lambda p: p.get("order", 50))
