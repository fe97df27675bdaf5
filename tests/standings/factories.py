"""Helpers for standings tests: seats, and hand-made placings fed through event_placings."""

import datetime as dt

import pytest

from events import selectors as event_selectors
from events.models import Event
from events.placings import Placing
from members.models import Membership
from tests.factories import MembershipFactory, PersonFactory


def seats(season, count: int, *, prefix: str = "m", **kwargs) -> list[Membership]:
    """``count`` members of the season with keys m01, m02, …"""
    return [
        MembershipFactory(
            season=season,
            person=PersonFactory(
                key=f"{prefix}{i:02d}", first_name=prefix.upper() + f"{i:02d}", last_name="Test"
            ),
            **kwargs,
        )
        for i in range(1, count + 1)
    ]


class FakeResults:
    """Results for events by number: the memberships in place order (best first). Marks the events final."""

    def __init__(self, monkeypatch, season):
        self.season = season
        self.by_event: dict[int, list[Membership]] = {}
        monkeypatch.setattr(event_selectors, "event_placings", self.placings)
        monkeypatch.setattr(event_selectors, "season_placings", self.season_placings)
        monkeypatch.setattr(event_selectors, "season_places", self.season_places)

    def placings(self, *, event) -> list[Placing]:
        order = self.by_event.get(event.number, []) if event.season_id == self.season.pk else []
        return [
            Placing(place=i, membership_id=m.pk, member_key=m.person.key)
            for i, m in enumerate(order, start=1)
        ]

    def season_placings(self, *, events) -> dict[int, list[Placing]]:
        return {e.pk: self.placings(event=e) for e in events if e.status == Event.Status.FINAL}

    def season_places(self, *, events) -> dict[int, dict[int, int]]:
        return event_selectors.places_of(self.season_placings(events=events))

    def set(self, number: int, order: list[Membership], *, final: bool = True) -> Event:
        self.by_event[number] = list(order)
        event = Event.objects.get(season=self.season, number=number)
        if final:
            event.status = Event.Status.FINAL
            event.save(update_fields=["status"])
        return event


@pytest.fixture
def results(monkeypatch, season):
    return FakeResults(monkeypatch, season)


def day(y: int, m: int, d: int) -> dt.date:
    return dt.date(y, m, d)
