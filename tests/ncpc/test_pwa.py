"""The installable night (issue 20): the service worker at the site's root, its cache named after the files
it keeps, the manifest and its icons, all from the site itself."""

import json
import re

import pytest
from PIL import Image

from ncpc.club.views import pwa as pwa_views

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_as_javascript_to_anyone(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert answer["Cache-Control"] == "no-cache"
    body = answer.content.decode()
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", body).group(1))
    for path in ("/static/events/clock.js", "/static/events/night.css", "/static/js/pwa.js"):
        assert path in precache
    assert "/static/vendor/bootstrap/bootstrap.min.css" in precache
    assert all(url.startswith("/static/") for url in precache)  # nothing from another site
    assert re.search(r'var CACHE = "ncpc-files-[0-9a-f]{16}";', body)


def test_the_cache_version_changes_when_a_kept_file_changes(tmp_path, monkeypatch):
    before = pwa_views._version()
    changed = tmp_path / "clock.js"
    changed.write_text("// a new clock")
    real = pwa_views.finders.find
    monkeypatch.setattr(
        pwa_views.finders, "find", lambda path: str(changed) if path == "events/clock.js" else real(path)
    )
    assert pwa_views._version() != before


@pytest.mark.parametrize(
    "start, expected",
    [
        ("/events/2026-27/4/clock/", "/events/2026-27/4/clock/"),
        ("/events/2026-27/4/console/", "/events/2026-27/4/console/"),
        ("https://elsewhere.example/", "/"),
        ("/finance/", "/"),
        ("", "/"),
    ],
)
def test_the_manifest_opens_the_night_page_it_was_added_from(client, start, expected):
    answer = client.get("/manifest.webmanifest", {"start": start})
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["start_url"] == expected
    assert manifest["scope"] == "/" and manifest["display"] == "fullscreen"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}


@pytest.mark.parametrize("name, size", [("icon-192", 192), ("icon-512", 512), ("icon-512-maskable", 512)])
def test_the_icons_are_pngs_of_their_size(name, size):
    with Image.open(pwa_views.finders.find(f"pwa/{name}.png")) as image:
        assert image.format == "PNG" and image.size == (size, size)


def test_the_clock_page_links_the_manifest_and_installs_the_worker(member_client, season):
    page = member_client.get(f"/events/{season.name}/4/clock/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest?start=/events/2026-27/4/clock/"' in page
    assert 'src="/static/js/pwa.js" data-sw="/sw.js"' in page
