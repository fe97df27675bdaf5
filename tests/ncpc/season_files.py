"""Handmade season files (format ncpc-season/1) for the import/export tests."""

import copy
import datetime as dt

DATES_2026 = [
    "2026-08-22", "2026-09-26", "2026-10-24", "2026-11-14", "2026-12-12",
    "2027-01-23", "2027-02-13", "2027-02-27", "2027-03-27", "2027-04-24",
]  # fmt: skip


def member_keys(n: int) -> list[str]:
    return [f"m{i:02d}" for i in range(1, n + 1)]


def season_file(n_members: int = 10, *, events: int = 10, rotate: bool = True) -> dict:
    """A complete, valid season: every member pays on time and plays every event.

    In event k, the finishing order is the member list rotated by k-1 (so m01 wins event 1, m02 event 2, …)
    unless ``rotate`` is False (then m01 always wins).
    """
    keys = member_keys(n_members)
    members = [
        {
            "key": key,
            "first_name": key.upper(),
            "last_name": "Player",
            "date_of_birth": "1980-01-01",
            "email": f"{key}@example.org",
            "sponsor": None,
        }
        for key in keys
    ]
    event_rows = []
    for number in range(1, events + 1):
        shift = (number - 1) % n_members if rotate else 0
        order = keys[shift:] + keys[:shift]
        event_rows.append(
            {
                "number": number,
                "date": DATES_2026[number - 1],
                "venue": "Smith house",
                "results": [{"member": key, "place": place} for place, key in enumerate(order, start=1)],
            }
        )
    payments = [{"member": key, "date": "2026-08-01", "amount": "510.00", "method": "check"} for key in keys]
    return {
        "format": "ncpc-season/1",
        "season": {"name": "2026-27", "start": "2026-08-01"},
        "venues": [{"name": "Smith house", "address": "12 Oak St"}],
        "members": members,
        "events": event_rows,
        "payments": payments,
        "tie_breaks": [],
        "wsop_declined": [],
        "wsop_results": [],
    }


def changed(data: dict, fn) -> dict:
    copy_ = copy.deepcopy(data)
    fn(copy_)
    return copy_


def iso(day: dt.date) -> str:
    return day.isoformat()
