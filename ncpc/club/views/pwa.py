"""The installable night (issue 20): the web app manifest and the service worker, served from the site's
root so the worker's scope is the whole site. The worker keeps the night's pages (console, clock, seats) and
the files they need, so they open with no network once loaded on the night; its cache is named after a hash
of those files, so a new deploy replaces it."""

import hashlib
import json
import re
from functools import cache

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from ncpc.core.identity import club_identity

# Every file a night page needs (the base layout's and the night's own). A file not there yet is left out.
PRECACHE = (
    "vendor/bootstrap/bootstrap.min.css",
    "vendor/bootstrap/bootstrap.bundle.min.js",
    "css/ncpc.css",
    "js/ncpc.js",
    "js/once.js",
    "js/pwa.js",
    "js/night_queue.js",
    "js/clock_plan.js",
    "favicon.svg",
    "events/night.css",
    "events/clock.js",
    "events/console.js",
    "pwa/icon-192.png",
    "pwa/icon-512.png",
    "pwa/icon-512-maskable.png",
)
# The pages the worker keeps for offline use (network first, the kept copy when there is no network).
NIGHT_PAGES = r"^/(events/[^/]+/\d+/(console|clock|night)/)?$"
SERVICE_WORKER = "pwa/service-worker.js"


def _precached() -> list[tuple[str, str]]:
    """(static path, file on disk) of the files to keep."""
    out = []
    for path in PRECACHE:
        found = finders.find(path)
        if isinstance(found, str):
            out.append((path, found))
    return out


def _version() -> str:
    digest = hashlib.sha256()
    for path, found in _precached():
        digest.update(path.encode())
        with open(found, "rb") as file:
            digest.update(file.read())
    template = loader.get_template(SERVICE_WORKER)
    digest.update(template.template.source.encode())  # type: ignore[attr-defined]
    return digest.hexdigest()[:16]


_version_once = cache(_version)


@login_not_required
@require_GET
def service_worker(request):
    version = _version() if settings.DEBUG else _version_once()
    body = loader.render_to_string(
        SERVICE_WORKER,
        {
            "version": version,
            "precache": json.dumps([static(path) for path, _ in _precached()]),
            "static_url": json.dumps(settings.STATIC_URL),
            "pages": json.dumps(NIGHT_PAGES),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # the browser checks for a new worker on every visit
    return response


@login_not_required
@require_GET
def manifest(request):
    """The manifest; ``?start=`` is the night page it was linked from, so the icon opens that page."""
    start = request.GET.get("start", "/")
    if not re.match(NIGHT_PAGES, start):
        start = "/"
    short_name = club_identity().short_name
    body = {
        "name": f"{short_name} tournament night",
        "short_name": f"{short_name} night",
        "description": "The club's tournament night: clock, seats and busts, also when the Wi-Fi drops.",
        "start_url": start,
        "scope": "/",
        "display": "fullscreen",
        "orientation": "any",
        "background_color": "#212529",
        "theme_color": "#0f5132",
        "icons": [
            {"src": static("pwa/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("pwa/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("pwa/icon-512-maskable.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response
