"""Demo people for `manage.py load_demo`: 16 members, three of them officers with logins."""

import datetime as dt

from django.contrib.auth import get_user_model

from members.models import (
    Ballot,
    Membership,
    OfficerTerm,
    Person,
    RulesSignature,
    Suspension,
    WaitingListEntry,
)
from members.services.ballots import (
    ballot_close,
    ballot_open,
    ballot_publish,
    ballot_vote,
    rule_change_accept,
    rule_change_submit,
)
from members.services.elections import ElectionDays, election_create, election_days, nomination_record
from members.services.officers import default_term
from members.services.standing import rules_signature_record, suspension_create
from members.services.waiting_list import waiting_list_add
from ncpc.core.clock import club_today

DEMO_PASSWORD = "ncpc-demo-2026"  # noqa: S105  (local demo only; README says so)

# key, first, last, date of birth, office (or "")
DEMO_PEOPLE = (
    ("rick", "Rick", "Hammond", dt.date(1968, 3, 14), "president"),
    ("vera", "Vera", "Okafor", dt.date(1975, 7, 2), "vice_president"),
    ("tom", "Tom", "Brennan", dt.date(1971, 11, 23), "treasurer"),
    ("ann", "Ann", "Lee", dt.date(1980, 4, 2), ""),
    ("bob", "Bob", "Schuster", dt.date(1966, 1, 30), ""),
    ("cat", "Cat", "Delgado", dt.date(1984, 9, 9), ""),
    ("dan", "Dan", "Fischer", dt.date(1979, 5, 17), ""),
    ("eve", "Eve", "Marsh", dt.date(1990, 12, 1), ""),
    ("gus", "Gus", "Wendt", dt.date(1962, 6, 6), ""),
    ("hal", "Hal", "Pruitt", dt.date(1973, 2, 28), ""),
    ("ivy", "Ivy", "Nakamura", dt.date(1987, 8, 19), ""),
    ("joe", "Joe", "Castellano", dt.date(1969, 10, 4), ""),
    ("kim", "Kim", "Albers", dt.date(1982, 3, 27), ""),
    ("lou", "Lou", "Tremblay", dt.date(1958, 7, 12), ""),
    ("max", "Max", "Ortiz", dt.date(1993, 4, 8), ""),
    ("ned", "Ned", "Kowalski", dt.date(1976, 12, 19), ""),
)


def demo_people_load(*, season) -> list[Person]:
    User = get_user_model()
    people: list[Person] = []
    term_start, term_end = default_term(
        start_year=season.start.year if season.start.month >= 6 else season.start.year
    )
    for key, first, last, born, office in DEMO_PEOPLE:
        user, created = User.objects.get_or_create(
            username=key, defaults={"first_name": first, "last_name": last, "email": f"{key}@example.org"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        person, _ = Person.objects.get_or_create(
            key=key,
            defaults={
                "first_name": first,
                "last_name": last,
                "email": f"{key}@example.org",
                "phone": "513-555-01" + f"{len(people):02d}",
                "address": f"{100 + 7 * len(people)} Vine St, Cincinnati, OH",
                "date_of_birth": born,
                "user": user,
            },
        )
        Membership.objects.get_or_create(person=person, season=season, defaults={"joined_on": season.start})
        if office and not OfficerTerm.objects.filter(person=person, office=office).exists():
            OfficerTerm.objects.create(person=person, office=office, start=term_start, end=term_end)
        people.append(person)
    return people


def demo_context_people(context: dict) -> None:
    context["people"] = demo_people_load(season=context["season"])


# key, first, last, date of birth, sponsor key: people waiting for a seat, first alternate first.
DEMO_WAITING = (
    ("pam", "Pam", "Whitaker", dt.date(1985, 5, 21), "ann"),
    ("quinn", "Quinn", "Haddad", dt.date(1991, 10, 3), "bob"),
    ("ray", "Ray", "Lindqvist", dt.date(1977, 1, 15), ""),
)


def demo_membership_extras(context: dict) -> None:
    """Rules signatures, a waiting list and one past suspension (each added only once)."""
    season = context["season"]
    memberships = {
        m.person.key: m for m in Membership.objects.filter(season=season).select_related("person", "season")
    }
    # Every demo member played the events already held, so each signed before the first event (§2.4).
    for index, key in enumerate(sorted(memberships)):
        membership = memberships[key]
        if not RulesSignature.objects.filter(membership=membership).exists():
            rules_signature_record(
                membership=membership, signed_on=season.start + dt.timedelta(days=2 + index % 15)
            )
    for key, first, last, born, sponsor_key in DEMO_WAITING:
        person, _ = Person.objects.get_or_create(
            key=key,
            defaults={
                "first_name": first,
                "last_name": last,
                "email": f"{key}@example.org",
                "date_of_birth": born,
            },
        )
        if not WaitingListEntry.objects.filter(person=person).exists() and not person.memberships.exists():
            sponsor = memberships.get(sponsor_key)
            waiting_list_add(
                person=person,
                sponsor=sponsor.person if sponsor else None,
                on=season.start + dt.timedelta(days=20),
                notes="Asked to join at the August event" if sponsor else "",
            )
    suspended = memberships.get("eve")
    if suspended is not None and not Suspension.objects.filter(membership=suspended).exists():
        # 1–20 September: between the August and September events, so no event night is affected.
        suspension_create(
            membership=suspended,
            start=season.start + dt.timedelta(days=31),
            end=season.start + dt.timedelta(days=50),
            reason="Two weeks for repeated verbal abuse at the August event (§5.5.1)",
        )
    context["waiting_list"] = [key for key, *_ in DEMO_WAITING]


def demo_governance(context: dict) -> None:
    """A published rule-change ballot (one change adopted, one rejected) and an open election with nominations.

    Uses the real commands, so the counts are secret ballots like any other. Added once per season.
    """
    season = context["season"]
    today = club_today()
    people = {p.key: p for p in context["people"]}
    voters = [people[key] for key, *_ in DEMO_PEOPLE if key in people]
    if not Ballot.objects.filter(season=season, kind=Ballot.Kind.RULE_CHANGES).exists():
        _demo_rule_ballot(season=season, people=people, voters=voters, today=today)
    days = election_days(season=season)
    if not Ballot.objects.filter(season=season, kind=Ballot.Kind.ELECTION).exists() and days.nominations:
        _demo_election(season=season, people=people, days=days, nominated_on=days.nominations, today=today)


def _demo_rule_ballot(*, season, people: dict[str, Person], voters: list[Person], today: dt.date) -> None:
    """Two suggested rule changes accepted onto a ballot, voted on (one adopted, one rejected) and published."""
    items = (
        (
            "gus",
            "Let a member send a substitute four times a season",
            "Four substitutes a season (§5.3.1)",
            "substitutes_per_season",
            "4",
            11,
            4,
        ),
        (
            "hal",
            "Start with 15,000 chips so the early levels last",
            "Starting stack 15,000 chips (§4.3)",
            "starting_stack",
            "15000",
            5,
            10,
        ),
    )
    changes = []
    for key, suggestion, title, field, value, _yes, _no in items:
        change = rule_change_submit(season=season, person=people[key], suggestion=suggestion, on=today)
        changes.append(
            rule_change_accept(change=change, title=title, rule_field=field, value_text=value, on=today)
        )
    accepted_ballot = changes[0].ballot
    assert accepted_ballot is not None, "an accepted rule change is on a ballot"
    ballot = ballot_open(ballot=accepted_ballot, on=today)
    questions = list(ballot.questions.order_by("position"))
    for index, voter in enumerate(voters):
        choices = {}
        for question, (*_, yes, no) in zip(questions, items, strict=True):
            if index < yes:
                choices[question.pk] = "yes"
            elif index < yes + no:
                choices[question.pk] = "no"
        if choices:
            ballot_vote(ballot=ballot, person=voter, choices=choices, on=today)
    ballot_close(ballot=ballot, on=today)
    ballot_publish(ballot=ballot, on=today)


def _demo_election(
    *, season, people: dict[str, Person], days: ElectionDays, nominated_on: dt.date, today: dt.date
) -> None:
    """The election, its nominations and, once its voting day has come, a few members' votes."""
    # Nominations are dated at the March event and votes at the April event (SPEC §15.14): before April
    # the demo election waits, prepared, for its voting day.
    election = election_create(season=season, on=today)
    for office, keys in (
        ("president", ("rick", "ann")),
        ("vice_president", ("vera",)),
        ("treasurer", ("tom", "bob")),
    ):
        for key in keys:
            nomination_record(
                ballot=election,
                office=office,
                person=people[key],
                nominated_by=people["joe"],
                on=nominated_on,
            )
    if days.voting is None or today < days.voting:
        return
    ballot_open(ballot=election, on=days.voting)
    offices = {q.office: q for q in election.questions.prefetch_related("nominations__person")}
    # A few members voted already; ann, bob and the officers have not (log in as ann to try it).
    for index, key in enumerate(("cat", "dan", "eve", "gus", "hal")):
        choices = {}
        for question in offices.values():
            nominations = list(question.nominations.all())
            choices[question.pk] = str(nominations[index % len(nominations)].pk)
        ballot_vote(ballot=election, person=people[key], choices=choices, on=days.voting)


DEMO_STEPS = [(20, demo_context_people), (21, demo_membership_extras), (25, demo_governance)]
