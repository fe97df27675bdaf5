"""Factories and helpers for the membership tests."""

import datetime as dt

from members.models import Membership
from members.services.admission import VoteCounts
from tests.factories import MembershipFactory, PersonFactory


def seats_fill(*, season, count: int) -> list[Membership]:
    """``count`` more members holding a seat from event 1."""
    return [MembershipFactory(season=season) for _ in range(count)]


def candidate(**kwargs):
    """A person who meets every condition about themself (born 1980, not professional)."""
    return PersonFactory(**kwargs)


def unanimous(*, on: dt.date, members: int) -> VoteCounts:
    return VoteCounts(held_on=on, yes=members)
