"""Factories for the tests (factory_boy). Each app's models get theirs here."""

import datetime as dt
import uuid

import factory
from django.contrib.auth import get_user_model

from events.models import Season, Venue
from events.services.seasons import season_create
from members.models import Membership, OfficerTerm, Person


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("pw-for-tests-123")


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    key = factory.Sequence(lambda n: f"p{n}")
    first_name = factory.Sequence(lambda n: f"First{n}")
    last_name = factory.Sequence(lambda n: f"Last{n}")
    email = factory.LazyAttribute(lambda p: f"{p.key}@example.org")
    date_of_birth = dt.date(1980, 1, 1)
    user = None


class VenueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Venue
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Venue {n}")


def season_make(start_year: int = 2026) -> Season:
    """A season with the bylaws' rules (or the previous season's) and its 10 events."""
    existing = Season.objects.filter(start=dt.date(start_year, 8, 1)).first()
    return existing or season_create(start_year=start_year)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    person = factory.SubFactory(PersonFactory)
    season = factory.LazyFunction(season_make)
    joined_on = factory.LazyAttribute(lambda m: m.season.start)


class OfficerTermFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = OfficerTerm

    person = factory.SubFactory(PersonFactory)
    office = OfficerTerm.Office.PRESIDENT
    start = dt.date(2026, 6, 1)
    end = dt.date(2027, 5, 31)


def member_user(*, season: Season | None = None, username: str | None = None, office: str | None = None):
    """A login for a person holding a seat in ``season`` (and an office, if given) — for view tests."""
    season = season or season_make()
    user = UserFactory(username=username) if username else UserFactory()
    person = PersonFactory(user=user, key=user.username)
    MembershipFactory(person=person, season=season)
    if office:
        OfficerTermFactory(
            person=person,
            office=office,
            start=dt.date(season.start.year, 6, 1),
            end=dt.date(season.end.year, 5, 31),
        )
    return user


def once() -> str:
    """A fresh one-time key, as a money form issues with itself (``ncpc.core.forms.BooksOnceForm``)."""
    return uuid.uuid4().hex
