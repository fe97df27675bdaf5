"""The requests bench/instructions counts: REQUESTS GETs of PAGE by the demo member ann (Django's test client, in
this process), each page's first requests included in the count it subtracts. ``--pages`` prints the pages it
measures by default (bench/pages.py's), one per line."""

import logging
import os
import sys

from django.test import Client
from pages import measured_pages  # bench/pages.py, beside this file (it sets Django up)


def main() -> None:
    if sys.argv[1:] == ["--pages"]:
        print("\n".join(measured_pages()))
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
