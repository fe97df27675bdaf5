"""The requests bench/instructions counts: REQUESTS GETs of PAGE by the demo member ann (Django's test client, in
this process), each page's first requests included in the count it subtracts. ``--pages`` prints the pages it
measures by default (the floor first), one per line."""

import logging
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ncpc.settings")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402

from events.models import Event  # noqa: E402
from events.selectors import current_season  # noqa: E402
from ncpc.clock import club_today  # noqa: E402


def default_pages() -> list[str]:
    """The logged-in floor, then the main pages, as bench/run and bench/pages.py measure them."""
    season = current_season()
    if season is None:
        raise SystemExit("bench: no season (prepare the database as bench/run does)")
    final = season.events.filter(status=Event.Status.FINAL).order_by("-number").first()
    today = club_today()
    return [
        "/reports/",
        "/",
        f"/standings/{season.name}/",
        f"/events/{season.name}/",
        f"/events/{season.name}/{final.number if final else 1}/",
        f"/finance/reports/{today.year}/{today.month}/",
        f"/api/v1/seasons/{season.name}/report",
    ]


def main() -> None:
    if sys.argv[1:] == ["--pages"]:
        print("\n".join(default_pages()))
        return
    logging.getLogger("axes").setLevel(logging.ERROR)
    page, requests = os.environ["PAGE"], int(os.environ["REQUESTS"])
    client = Client()
    client.post("/accounts/login/", {"username": "ann", "password": "ncpc-demo-2026"})
    for _ in range(requests):
        response = client.get(page)
        if response.status_code != 200:
            raise SystemExit(f"bench: {page} answered {response.status_code}")


if __name__ == "__main__":
    main()
